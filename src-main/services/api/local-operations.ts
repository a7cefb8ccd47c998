import PQueue from 'p-queue';
import { runModelBranch } from '../../analysis';
import type { AppConfig } from '../../config';
import type { Logger } from '../../core';
import { createImageLoader, intakeOptions } from '../../intake';
import { analyzeBranchWorker } from '../analyze-worker';
import { createAnalyzeService } from '../analyze.service';
import { createDetectService } from '../detect.service';
import { openGalleryMatcher } from '../gallery-open';
import { addCancellable } from './cancellable-queue';
import type { ImageOperations } from './operations';
import { openLocalEngine } from '../local-engine';
import { createThumbnailService } from '../thumbnail.service';
import { defaultRegionSources } from '../thumbnail-open';

/** How the server's own image operations fetch images and share the CPU. */
export interface LocalOperationsOptions {
  config: AppConfig;
  /** Refuse image URLs on loopback/private/link-local/metadata addresses (the API default). */
  blockPrivateNetworks: boolean;
  /** Operations running at once; more wait in line (default `config.analysisConcurrency`). */
  concurrency?: number;
  /**
   * Run analyze's objects and NSFW in a worker thread while the faces run on this one (default
   * true when `config.modelThreads` ≥ 2; docs/analysis.md "Two threads").
   */
  branchWorker?: boolean;
  /** Where the analyze worker reports a missing entry or a crash (default: silent). */
  logger?: Logger;
}

/**
 * The local models behind the API: the analyze and detect services over one inference engine,
 * with intake in `api` mode (never local files; private networks blocked unless allowed). At
 * most `concurrency` calls run the models at once, so a burst queues instead of exhausting memory.
 */
export function createLocalOperations(opts: LocalOperationsOptions): ImageOperations & { close(): Promise<void> } {
  const { config } = opts;
  const engine = openLocalEngine(config);
  const loader = createImageLoader(intakeOptions('api', { blockPrivateNetworks: opts.blockPrivateNetworks }));
  // Celebrities and landmarks come from the galleries in the app database (docs/galleries.md).
  const galleries = openGalleryMatcher(config.dbPath, engine);
  const branch =
    (opts.branchWorker ?? config.modelThreads >= 2)
      ? analyzeBranchWorker(config, { logger: opts.logger, fallback: (img, want, signal) => runModelBranch(img, want, engine, signal) })
      : undefined;
  const analyzer = createAnalyzeService({
    runModel: engine,
    loader,
    faceRunner: engine,
    gallery: galleries.matcher,
    modelBranch: branch?.run,
  });
  const detector = createDetectService({ runner: engine, loader });
  const thumbnails = createThumbnailService({ loader, regionSources: defaultRegionSources(engine) });
  const queue = new PQueue({ concurrency: Math.max(1, opts.concurrency ?? config.analysisConcurrency) });
  return {
    analyze: (req, signal) =>
      addCancellable(
        queue,
        async () => (await analyzer.analyze(req.image, { features: req.features, details: req.details }, signal)).data,
        signal,
      ),
    detect: (req, signal) =>
      addCancellable(
        queue,
        async () => (await detector.detect({ image: req.image, minHeadScale: req.minHeadScale, selector: req.selector }, signal)).response,
        signal,
      ),
    thumbnail: (req, signal) =>
      queue.add(
        async () => {
          const t = await thumbnails.thumbnail(
            req.image,
            { width: req.width, height: req.height, smartCropping: req.smartCropping },
            signal,
          );
          return { data: t.data, mimeType: t.mimeType, width: t.width, height: t.height };
        },
        { signal },
      ),
    async close() {
      queue.clear();
      await queue.onIdle();
      await branch?.close();
      await galleries.close();
      await loader.close();
      await engine.dispose();
    },
  };
}
