import PQueue from 'p-queue';
import type { AnalyzeService } from '../analyze.service';
import type { DetectService } from '../detect.service';
import type { ThumbnailService } from '../thumbnail.service';
import { addCancellable } from './cancellable-queue';
import type { ImageOperations } from './operations';

/** The services behind the API's image operations, and how many calls may run at once. */
export interface QueuedOperationsDeps {
  /** Built with the API's intake (never local files; private networks per the server's policy). */
  analyzer: AnalyzeService;
  detector: DetectService;
  thumbnails: ThumbnailService;
  /** Operations running at once; more wait in line. */
  concurrency: number;
}

/**
 * The local models behind the API: at most `concurrency` calls run the models at once, so a
 * burst queues instead of exhausting memory. `close()` drops the calls still waiting and waits
 * for those running; the services themselves belong to their builder.
 */
export function queuedOperations(deps: QueuedOperationsDeps): ImageOperations & { close(): Promise<void> } {
  const { analyzer, detector, thumbnails } = deps;
  const queue = new PQueue({ concurrency: Math.max(1, deps.concurrency) });
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
    // Like the other two: a cancelled call leaves the line, but a started crop keeps its slot
    // until it has unwound (p-queue's own `signal` would free the slot at the abort while the
    // smart crop's model runs go on).
    thumbnail: (req, signal) =>
      addCancellable(
        queue,
        async () => {
          const t = await thumbnails.thumbnail(
            req.image,
            { width: req.width, height: req.height, smartCropping: req.smartCropping },
            signal,
          );
          return { data: t.data, mimeType: t.mimeType, width: t.width, height: t.height };
        },
        signal,
      ),
    async close() {
      queue.clear();
      await queue.onIdle();
    },
  };
}
