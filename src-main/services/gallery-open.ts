/** Opens the gallery service on a database file with the local models (CLI, desktop, server). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GalleryMatcher } from '../analysis';
import type { AppConfig } from '../config';
import { InferenceEngine, loadManifest } from '../inference';
import { createImageLoader, intakeOptions } from '../intake';
import { migrate, openDatabase, type Db } from '../store';
import { GalleryService, type GalleryServiceDeps } from './gallery.service';

/** A gallery service plus `close()` for its database, models and connections. */
export interface OpenGalleryService {
  service: GalleryService;
  close(): Promise<void>;
}

/**
 * Opens (creating and migrating if needed) `dbPath` (default `config.dbPath`) with desktop intake
 * (local files allowed). Models load lazily: list/remove/export never touch them.
 */
export function openGalleryService(config: AppConfig, dbPath = config.dbPath): OpenGalleryService {
  const db = openDatabase(dbPath);
  migrate(db);
  const engine = new InferenceEngine(loadManifest(join(config.modelsDir, 'manifest.json')), {
    modelsDir: config.modelsDir,
    intraOpNumThreads: config.modelThreads,
  });
  const loader = createImageLoader(intakeOptions('desktop', { blockPrivateNetworks: config.blockPrivateNetworks }));
  const service = new GalleryService({ db, engine, loader });
  return {
    service,
    async close() {
      await service.dispose();
      await loader.close();
      await engine.dispose();
      db.close();
    },
  };
}

/** The galleries of the app database as analyze's matcher, plus `close()`. */
export interface OpenGalleryMatcher {
  matcher: Required<GalleryMatcher>;
  close(): Promise<void>;
}

/**
 * The matcher for an analyze service that already has an engine. The database is opened on the
 * first match call, and only if the file exists (no database means no enrolled entries): analyze
 * calls without details, or on a machine without galleries, never create or touch it.
 */
export function openGalleryMatcher(dbPath: string, engine: GalleryServiceDeps['engine']): OpenGalleryMatcher {
  let opened: { db: Db; service: GalleryService } | null | undefined;
  const current = (): GalleryService | null => {
    if (opened === undefined) {
      if (!existsSync(dbPath)) return null; // checked again on the next call: it may appear later
      const db = openDatabase(dbPath);
      migrate(db);
      opened = { db, service: new GalleryService({ db, engine }) };
    }
    return opened?.service ?? null;
  };
  return {
    matcher: {
      matchCelebrities: async (img, faces, signal) => (await current()?.matcher().matchCelebrities(img, faces, signal)) ?? [],
      matchLandmarks: async (img, signal) => (await current()?.matcher().matchLandmarks(img, signal)) ?? { details: [] },
    },
    async close() {
      if (opened) {
        await opened.service.dispose();
        opened.db.close();
      }
      opened = null;
    },
  };
}
