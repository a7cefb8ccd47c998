/** Builds the analyze service over the local models for the desktop app and the CLI. */
import { runModelBranch } from '../analysis';
import type { AppConfig } from '../config';
import { silentLogger, type Logger } from '../core';
import { createImageLoader, intakeOptions } from '../intake';
import { analyzeBranchWorker } from './analyze-worker';
import { analyzeModelsFromEngine, createAnalyzeService, type AnalyzeService } from './analyze.service';
import { openGalleryMatcher } from './gallery-open';
import { openLocalEngine } from './local-engine';

/** An analyze service plus `close()` for its models and connections. */
export interface OpenAnalyzeService {
  service: AnalyzeService;
  close(): Promise<void>;
}

/** Options of `openAnalyzeService`. */
export interface OpenAnalyzeOptions {
  /**
   * Run objects, NSFW and pixel statistics in a worker thread while the faces run on this one
   * (default true when `config.modelThreads` ≥ 2). Turn it off where analyses already run in a
   * worker or several at once, so the cores are already shared.
   */
  branchWorker?: boolean;
  logger?: Logger;
}

/**
 * Opens the analyze service with `config`'s models and threads and desktop intake (local files
 * and `file:` URLs allowed, the user's LAN trusted unless `blockPrivateNetworks`).
 */
export function openAnalyzeService(config: AppConfig, opts: OpenAnalyzeOptions = {}): OpenAnalyzeService {
  const engine = openLocalEngine(config);
  const models = analyzeModelsFromEngine(engine);
  const loader = createImageLoader(intakeOptions('desktop', { blockPrivateNetworks: config.blockPrivateNetworks }));
  // Celebrities and landmarks come from the galleries in the app database (docs/galleries.md).
  const galleries = openGalleryMatcher(config.dbPath, engine);
  const branch =
    (opts.branchWorker ?? config.modelThreads >= 2)
      ? analyzeBranchWorker(config, {
          fallback: (img, want, signal) => runModelBranch(img, want, models.runModel, signal),
          logger: opts.logger ?? silentLogger,
        })
      : undefined;
  return {
    service: createAnalyzeService({ ...models, loader, gallery: galleries.matcher, modelBranch: branch?.run }),
    async close() {
      await branch?.close();
      await galleries.close();
      await loader.close();
      await engine.dispose();
    },
  };
}
