import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import type { AppConfig } from '../../config';
import { AppError } from '../../core';
import { remoteProcessorFactory } from '../../services/api';
import type { BatchService, BatchServiceDeps } from '../../services/batches.service';
import { modelSetOf, parseRedisUrl } from '../../services/distributed';
import type { GalleryService } from '../../services/gallery.service';
import { openOutputFile } from '../../services/output-file';
import type { ThumbnailService } from '../../services/thumbnail.service';
import type { AppInfo, Backend, BatchSummary, ExportSaved, HandlerTable, ServerState, UiSettings } from '../../shared';
import { createEventHub, type EventHub } from './events';
import { createApiHandlers, type GalleriesPort } from './handlers';
import { parseRequest } from './handlers/parse';
import type { ExportSource, ThumbnailSource } from './routes';
import type { SettingsStore } from './settings-store';
import { smartThumbnails } from './smart-thumbnails';

export interface UiBackendOptions {
  config: AppConfig;
  mode: AppInfo['mode'];
  /** The batch service (built by the composition root, with Settings' remote key and Redis URL). */
  service: BatchService;
  settings: SettingsStore;
  server: () => ServerState;
  /** Absent where the galleries cannot open (no models). */
  galleries?: GalleryService;
  /** The smart-thumbnail service, built on first use; absent where the local models are not available. */
  thumbnails?: () => ThumbnailService;
  /** Called after settings are saved (the desktop app moves its API server). */
  onSettingsSaved?: (settings: UiSettings) => Promise<unknown>;
}

/** Everything a UI bridge (IPC or HTTP) needs, over one BatchService. */
export interface UiBackend {
  handlers: HandlerTable;
  events: EventHub;
  thumbnails: ThumbnailSource;
  exportResults: ExportSource;
  /** The backend half of the desktop's `export:save`: writes the export of `raw`'s filter to `path`. */
  saveExport(raw: unknown, path: string): Promise<ExportSaved>;
  service: BatchService;
  /** Stops the event feed and waits for a smart thumbnail in progress; the services are the composition root's to close. */
  close(): Promise<void>;
}

/** Adapts the batch service, settings and events to the handler table of the contract. */
export function createUiBackend(opts: UiBackendOptions): UiBackend {
  const events = createEventHub();
  const { service, settings } = opts;
  // The UI asks for "distributed workers"; the Redis address is the one in Settings (stored
  // without its password) and each batch gets its own queue key.
  const concreteBackend = (b: Backend): Backend => {
    if (b.kind !== 'distributed') return b;
    const url = settings.redisUrl();
    if (!url) throw new AppError('invalid-parameter', 'Set the Redis URL of the distributed workers in Settings first.');
    return { kind: 'distributed', redisUrl: parseRedisUrl(url).stored, queueKey: randomBytes(6).toString('hex') };
  };
  const changed = (batchId: number): void => events.emit('batches:changed', { batchId });
  const lastStatus = new Map<number, string>();
  const offProgress = service.onProgress((p) => {
    events.emit('batches:progress', p);
    if (lastStatus.get(p.batchId) !== p.status) changed(p.batchId);
    lastStatus.set(p.batchId, p.status);
  });

  // A run resolves when it stops; the UI follows it through progress events.
  const run = (batchId: number): void => {
    service.start(batchId).catch((err: unknown) => {
      events.emit('app:notice', {
        level: 'error',
        message: `Batch ${batchId} stopped: ${err instanceof Error ? err.message : String(err)}`,
      });
    });
  };
  const started = (batchId: number): BatchSummary => {
    run(batchId);
    return service.get(batchId);
  };

  // Smart thumbnails need the local models: offered where the local backend is.
  const thumbnailPort = opts.thumbnails ? smartThumbnails(opts.thumbnails, (itemId) => service.result(itemId).item.url) : undefined;
  const handlers = createApiHandlers({
    info: { version: opts.config.version, dataDir: opts.config.dataDir, dbPath: opts.config.dbPath, mode: opts.mode },
    batches: {
      list: async () => service.list(),
      get: async (id) => service.get(id),
      create: async ({ list, options }) => {
        const report = await service.create(
          Readable.from([list.text]),
          { ...options, backend: concreteBackend(options.backend) },
          list.format,
        );
        started(report.batch.id);
        changed(report.batch.id);
        return { ...report, batch: service.get(report.batch.id) };
      },
      pause: async (id) => {
        const s = await service.pause(id);
        changed(id);
        return s;
      },
      resume: async (id) => {
        const s = started(id);
        changed(id);
        return s;
      },
      retryFailed: async (id) => {
        if (service.requeueFailed(id) === 0) {
          throw new AppError(
            'invalid-input',
            `Batch ${id} has no failed item to run again: lines that are not image URLs fail the same way.`,
          );
        }
        const s = started(id);
        changed(id);
        return s;
      },
      cancel: async (id) => {
        const s = await service.cancel(id);
        changed(id);
        return s;
      },
      remove: async (id) => {
        await service.delete(id);
        changed(id);
      },
      progress: async () =>
        service
          .list()
          .filter((b) => b.status === 'running')
          .map((b) => service.progress(b.id)),
    },
    results: {
      page: async (q) => service.resultsPage(q),
      facets: async (f) => service.facets(f),
      get: async (id) => service.result(id),
      reanalyze: async (itemId) => {
        const item = await service.reanalyze(itemId);
        changed(item.batchId);
        return item;
      },
    },
    settings: {
      get: () => settings.get(),
      update: async (change) => {
        const saved = await settings.update(change);
        await opts.onSettingsSaved?.(saved);
        return saved;
      },
    },
    server: { status: async () => opts.server() },
    galleries: opts.galleries && galleriesPort(opts.galleries),
    thumbnails: thumbnailPort,
  });

  return {
    handlers,
    events,
    service,
    thumbnails: async (itemId) => {
      const t = service.thumbnail(itemId);
      return t ? { bytes: t.bytes, contentType: t.mime } : null;
    },
    exportResults: (filter, format) => {
      // Refused before the download's 200 goes out (a deleted batch), not as a body cut short.
      service.requireBatchOf(filter);
      const out = new PassThrough();
      service.export(filter, format, out).then(
        () => out.end(),
        (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
      );
      return out;
    },
    async saveExport(raw, path) {
      const { filter, format } = parseRequest('export:save', raw);
      // Under a temporary name until complete: an export cut short never replaces the user's file.
      const out = await openOutputFile(path);
      try {
        await service.export(filter, format, out.stream);
      } catch (err) {
        await out.discard();
        throw err;
      }
      await out.commit();
      return { path, bytes: (await stat(path)).size };
    },
    async close() {
      offProgress();
      await thumbnailPort?.close();
    },
  };
}

/** The galleries as the contract's port. */
function galleriesPort(service: GalleryService): GalleriesPort {
  return {
    list: async () => ({
      available: true,
      entries: service.list().map((e) => ({ id: e.id, kind: e.kind, name: e.name, references: e.references })),
    }),
    add: async (req) => {
      const e =
        req.kind === 'person'
          ? await service.addPerson(req.name, req.images, { faceNumber: req.faceNumber })
          : await service.addPlace(req.name, { latitude: req.latitude, longitude: req.longitude, mid: req.mid }, req.images);
      return { id: e.id, kind: e.kind, name: e.name, references: e.references };
    },
    remove: async (id) => void service.remove(id),
  };
}

/**
 * The batches' remote processor and Redis URL as Settings hold them: the remote backend uses the
 * key from Settings at the moment a batch starts.
 */
export function settingsBatchDeps(config: AppConfig, settings: SettingsStore): Pick<BatchServiceDeps, 'remoteProcessor' | 'distributed'> {
  return {
    remoteProcessor: (backend) => {
      const key = settings.remoteKey();
      if (!key) throw new AppError('unauthorized', 'The remote backend needs an API key: add it in Settings, then resume the batch.');
      return remoteProcessorFactory({ key })(backend);
    },
    distributed: { modelSet: safeModelSet(config), redisUrl: () => settings.redisUrl() ?? undefined },
  };
}

/** The model set of this install, or '' when the manifest is missing (distributed batches then refuse to start). */
function safeModelSet(config: AppConfig): string {
  try {
    return modelSetOf(config.modelsDir);
  } catch {
    return '';
  }
}
