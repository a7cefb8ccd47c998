import type { AppConfig } from '../config';
import { AppError, type Logger } from '../core';
import { haltModelRuns } from '../inference';
import type { ImageProcessor } from '../jobs';
import { branchWorkerFor } from './analyze-worker';
import { analyzeModelsFromEngine, createAnalyzeService } from './analyze.service';
import { createDetectService } from './detect.service';
import { openGalleryMatcher } from './gallery-matcher';
import { openLocalEngine } from './local-engine';

/** Stand-in until a processor is given: every analysis fails with `model-missing`. */
export const unavailableProcessor: ImageProcessor = {
  process: () => Promise.reject(new AppError('model-missing', 'The local analyze and detect models are not available in this build.')),
};

/** Options of `localBatchProcessor`. */
export interface LocalBatchOptions {
  /**
   * Runs analyze's face-free branch (objects, classes, NSFW, subject, pixel statistics) in an
   * analyze worker thread of its own while the faces run on this one; default when the config
   * gives the models two or more threads (as the composition root decides for interactive analyze).
   */
  branchWorker?: boolean;
  /** Where the branch worker reports starting, or failing to start (default: silent). */
  logger?: Logger;
}

/**
 * The local backend for batches: the analyze and detect services over one inference engine,
 * fed with images the batch has already fetched and decoded (no second download). Throws
 * `model-missing` when the manifest or a model file is absent, before any batch is created.
 *
 * ONNX Runtime's `run()` is synchronous on its calling thread, so on one thread an analysis uses
 * one core for its JavaScript (pre/post-processing, pixel statistics) and the models' second
 * thread only inside a run. With the branch worker the whole-image models run on a second thread
 * (one ONNX Runtime thread there), so with `analysisConcurrency` 2 one image's faces overlap
 * another's detector: both cores busy, and each model still loaded once (the face models here,
 * the whole-image models in the branch worker).
 */
export async function localBatchProcessor(config: AppConfig, options: LocalBatchOptions = {}): Promise<ImageProcessor> {
  const engine = openLocalEngine(config);
  // Celebrities and landmarks come from the galleries in the app database (docs/galleries.md).
  const galleries = openGalleryMatcher(config.dbPath, engine);
  const models = analyzeModelsFromEngine(engine);
  const branch = branchWorkerFor(config, models.runModel, { enabled: options.branchWorker, logger: options.logger });
  const analyzer = createAnalyzeService({ ...models, gallery: galleries.matcher, modelBranch: branch?.run });
  return {
    async process(image, operation, signal) {
      if (operation.kind === 'analyze') {
        const { data } = await analyzer.analyze(image, { features: operation.features, details: operation.details }, signal);
        return { kind: 'analyze', data };
      }
      // The detect service loads by URL; hand it the image this batch already holds.
      const detector = createDetectService({ runner: engine, loader: { load: async () => image } });
      const { response } = await detector.detect(
        { image: image.source, minHeadScale: operation.minHeadScale, selector: operation.selector },
        signal,
      );
      return { kind: 'detect', response };
    },
    async close() {
      await branch?.close();
      await galleries.close();
      await engine.dispose();
    },
    async halt() {
      await Promise.all([branch?.halt(), haltModelRuns()]);
    },
  };
}
