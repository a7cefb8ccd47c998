import type { AppConfig } from '../config';
import { AppError } from '../core';
import type { ImageProcessor } from '../jobs';
import { analyzeModelsFromEngine, createAnalyzeService } from './analyze.service';
import { createDetectService } from './detect.service';
import { openGalleryMatcher } from './gallery-matcher';
import { openLocalEngine } from './local-engine';

/** Stand-in until a processor is given: every analysis fails with `model-missing`. */
export const unavailableProcessor: ImageProcessor = {
  process: () => Promise.reject(new AppError('model-missing', 'The local analyze and detect models are not available in this build.')),
};

/**
 * The local backend for batches: the analyze and detect services over one inference engine,
 * fed with images the batch has already fetched and decoded (no second download). Throws
 * `model-missing` when the manifest or a model file is absent, before any batch is created.
 */
export async function localBatchProcessor(config: AppConfig): Promise<ImageProcessor> {
  const engine = openLocalEngine(config);
  // Celebrities and landmarks come from the galleries in the app database (docs/galleries.md).
  const galleries = openGalleryMatcher(config.dbPath, engine);
  const analyzer = createAnalyzeService({ ...analyzeModelsFromEngine(engine), gallery: galleries.matcher });
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
      await galleries.close();
      await engine.dispose();
    },
  };
}
