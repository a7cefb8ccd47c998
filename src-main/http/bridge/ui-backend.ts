import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { AppConfig } from '../../config';
import { AppError, type Logger } from '../../core';
import { BatchService, type ImageFetcher, type ImageProcessor } from '../../services/batches';
import { remoteProcessorFactory, type openApiDatabase } from '../../services/api';
import { modelSetOf, parseRedisUrl } from '../../services/distributed';
import { randomBytes } from 'node:crypto';
import type { AppInfo, Backend, BatchSummary, HandlerTable, ServerState, UiSettings } from '../../shared';
import { createEventHub, type EventHub } from './events';
import { createApiHandlers, type GalleriesPort } from './handlers';
import type { ExportSource, ThumbnailSource } from './routes';
import { createSettingsStore, type KeyVault } from './settings-store';
import { smartThumbnails } from './smart-thumbnails';

export interface UiBackendOptions {
  config: AppConfig;
  db: ReturnType<typeof openApiDatabase>;
  mode: AppInfo['mode'];
  /** The local analysis backend; without it items fail with `model-missing`. */
  processor?: ImageProcessor;
  fetcher?: ImageFetcher;
  vault: KeyVault;
  server: () => ServerState;
  galleries?: GalleriesPort;
  /** Called after settings are saved (the desktop app moves its API server). */
  onSettingsSaved?: (settings: UiSettings) => Promise<unknown>;
  logger: Logger;
  progressIntervalMs?: number;
}

/** Everything a UI bridge (IPC or HTTP) needs, over one BatchService. */
export interface UiBackend {
  handlers: HandlerTable;
  events: EventHub;
  thumbnails: ThumbnailSource;
  exportResults: ExportSource;
  service: BatchService;
  /** Pauses running batches, noting them so they resume on next start, and stops the event feed. */
  close(): Promise<void>;
}

const noModels: ImageProcessor = {
  process: async () => {
    throw new AppError('model-missing', 'The local models are not available in this build of picscan.');
  },
};

/** Composes the batch service, settings and events into the handler table of the contract. */
export function createUiBackend(opts: UiBackendOptions): UiBackend {
  const events = createEventHub();
  const settings = createSettingsStore(opts.config, opts.vault);
  const service = new BatchService({
    db: opts.db,
    config: opts.config,
    processor: opts.processor ?? noModels,
    fetcher: opts.fetcher,
    // The remote backend uses the key from Settings at the moment the batch starts.
    remoteProcessor: (backend) => {
      const key = settings.remoteKey();
      if (!key) throw new AppError('unauthorized', 'The remote backend needs an API key: add it in Settings, then resume the batch.');
      return remoteProcessorFactory({ key })(backend);
    },
    logger: opts.logger,
    progressIntervalMs: opts.progressIntervalMs,
    distributed: { modelSet: safeModelSet(opts.config), redisUrl: () => settings.redisUrl() ?? undefined },
  });
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
  const thumbnailPort = opts.processor ? smartThumbnails(opts.config, (itemId) => service.result(itemId).item.url) : undefined;
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
    galleries: opts.galleries,
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
      const out = new PassThrough();
      service.export(filter, format, out).then(
        () => out.end(),
        (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
      );
      return out;
    },
    async close() {
      offProgress();
      const running = service
        .list()
        .filter((b) => b.status === 'running')
        .map((b) => b.id);
      if (running.length) writeFileSync(resumeFile(opts.config), JSON.stringify(running));
      await service.close();
      await thumbnailPort?.close();
    },
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

const resumeFile = (config: AppConfig): string => join(config.dataDir, 'resume-on-start.json');

function pausedByShutdown(config: AppConfig): number[] {
  try {
    const ids: unknown = JSON.parse(readFileSync(resumeFile(config), 'utf8'));
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/**
 * Batches that were running when the app closed (paused by the shutdown) or crashed (still
 * `running`): resumed on start, so nothing is lost. Batches the user paused stay paused.
 */
export function resumeInterrupted(backend: UiBackend, config: AppConfig): number[] {
  const noted = new Set(pausedByShutdown(config));
  rmSync(resumeFile(config), { force: true });
  const ids = backend.service
    .list()
    .filter((b) => b.status === 'running' || (b.status === 'paused' && noted.has(b.id)))
    .map((b) => b.id);
  for (const id of ids) backend.service.start(id).catch(() => undefined);
  return ids;
}
