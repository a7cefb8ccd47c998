import type { AppConfig } from '../config';
import type { Logger } from '../core';
import { createUiBackend, type ServerControl, type SettingsStore, type UiBackend } from '../http/bridge';
import type { BatchService } from '../services/batches.service';
import type { GalleryService } from '../services/gallery.service';
import type { ThumbnailService } from '../services/thumbnail.service';
import type { AppInfo, HandlerTable, ServerState } from '../shared';
import type { DbFileGuard } from './db-file-guard';
import { namedStorageFailure } from './storage-failure';

/** What the UI is composed of; each getter is a part of the backend. */
export interface UiParts {
  config: AppConfig;
  logger: Logger;
  mode: AppInfo['mode'];
  settings: SettingsStore;
  batches: () => BatchService;
  batchModels: () => Promise<unknown>;
  galleries: () => GalleryService;
  thumbnails: () => ThumbnailService;
  /** The desktop's local API server (Settings → Local API server); web mode reports its own address. */
  server: ServerControl | { status(): ServerState };
  /** Refuses a call once the database file was removed or replaced under the backend. */
  dbGuard: DbFileGuard;
}

/**
 * The UI's handler table over the backend's parts. The batch models start now (a missing model
 * is a warning, and items then fail with `model-missing`); smart thumbnails are offered only
 * where they started, and the galleries where their models open. The desktop's API server
 * starts as Settings ask.
 */
export async function composeUi(p: UiParts): Promise<UiBackend> {
  // The database first: one that cannot be used fails the start, with nothing else begun.
  const service = p.batches();
  let models = false;
  try {
    await p.batchModels();
    models = true;
  } catch (err) {
    p.logger.warn('local models unavailable; analyses will fail with model-missing', {
      error: err instanceof Error ? err.message : String(err),
    });
  }
  let galleries: GalleryService | undefined;
  try {
    galleries = p.galleries();
  } catch (err) {
    p.logger.warn('galleries unavailable', { error: err instanceof Error ? err.message : String(err) });
  }
  const server = p.server;
  // The desktop's local API server, as Settings last asked (never throws: errors show in Settings).
  if ('apply' in server) void p.settings.get().then((s) => server.apply(s.server));
  const ui = createUiBackend({
    config: p.config,
    mode: p.mode,
    service,
    settings: p.settings,
    server: () => server.status(),
    galleries,
    thumbnails: models ? p.thumbnails : undefined,
    onSettingsSaved: 'apply' in server ? (s) => server.apply(s.server) : undefined,
  });
  return { ...ui, handlers: namingStorageFailures(ui.handlers, p.config, p.dbGuard) };
}

/**
 * The handler table with a write the database refused (locked by another process too long, disk
 * full, read-only…) named as the CLI names it (`storage-failed`: the file and the reason), instead
 * of reaching the UI as "an unexpected internal error"; and every call refused once the database
 * file is no longer at its path (`dbGuard`), rather than stored where it will be lost.
 */
function namingStorageFailures(table: HandlerTable, config: AppConfig, dbGuard: DbFileGuard): HandlerTable {
  const entries: Record<string, { parse: (raw: unknown) => unknown; run: (req: never) => Promise<unknown> }> = table;
  const named = Object.entries(entries).map(([channel, entry]) => [
    channel,
    {
      parse: entry.parse,
      run: async (req: never) => {
        try {
          dbGuard();
          return await entry.run(req);
        } catch (err) {
          throw namedStorageFailure(config, err);
        }
      },
    },
  ]);
  return Object.fromEntries(named) as HandlerTable;
}
