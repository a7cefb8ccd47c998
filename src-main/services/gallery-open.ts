/** Opens the gallery service on a database file with the local models (CLI, desktop, server). */
import { join } from 'node:path';
import type { AppConfig } from '../config';
import { InferenceEngine, loadManifest } from '../inference';
import { createImageLoader, intakeOptions } from '../intake';
import { migrate, openDatabase } from '../store';
import { GalleryService } from './gallery.service';

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
