/** Builds the analyze service over the local models for the desktop app and the CLI. */
import type { AppConfig } from '../config';
import { createImageLoader, intakeOptions } from '../intake';
import { analyzeModelsFromEngine, createAnalyzeService, type AnalyzeService } from './analyze.service';
import { openGalleryMatcher } from './gallery-open';
import { openLocalEngine } from './local-engine';

/** An analyze service plus `close()` for its models and connections. */
export interface OpenAnalyzeService {
  service: AnalyzeService;
  close(): Promise<void>;
}

/**
 * Opens the analyze service with `config`'s models and threads and desktop intake (local files
 * and `file:` URLs allowed, the user's LAN trusted unless `blockPrivateNetworks`).
 */
export function openAnalyzeService(config: AppConfig): OpenAnalyzeService {
  const engine = openLocalEngine(config);
  const loader = createImageLoader(intakeOptions('desktop', { blockPrivateNetworks: config.blockPrivateNetworks }));
  // Celebrities and landmarks come from the galleries in the app database (docs/galleries.md).
  const galleries = openGalleryMatcher(config.dbPath, engine);
  return {
    service: createAnalyzeService({ ...analyzeModelsFromEngine(engine), loader, gallery: galleries.matcher }),
    async close() {
      await galleries.close();
      await loader.close();
      await engine.dispose();
    },
  };
}
