import type { AppConfig } from '../config';
import { silentLogger, type Logger } from '../core';
import { transferable, workingCopy, type RgbImage } from '../inference';
import type { FetchedImage, ImageProcessor, ProcessedImage } from '../jobs';
import type { BatchOperation } from '../shared/batch';
import { localBatchProcessor } from './batches-processor';
import { resolveWorkerEntry } from './worker-entry';
import { startRpcWorker } from './worker-rpc';

/** One call of the batch worker: an image the batch fetched, and what to do with it. */
export interface BatchCall {
  image: FetchedImage;
  operation: BatchOperation;
  /** A large photo's working copy, made here for its thumbnail (inference/image.ts `adoptWorkingCopy`). */
  workingCopy?: RgbImage;
}

/**
 * The local backend in a worker thread: the models and their JavaScript pre/post-processing run
 * off this thread, so a batch keeps the host's event loop (the UI bridge, the HTTP server)
 * responsive. One worker holds one set of models; ONNX Runtime still uses `modelThreads` cores
 * and several images are in flight at once. Only the pixels and metadata cross the thread (one
 * copy, transferred), with a large photo's working copy beside them (3.7 MB for 12 MP), so the
 * worker does not read the photo in full again to make its own. Throws `model-missing` like the
 * in-process one.
 * Falls back to the in-process processor, with a warning, where no worker entry is found (see
 * `resolveWorkerEntry`) or the worker does not start; model-missing then comes from that one.
 * `entry` overrides the worker entry (tests).
 */
export async function singleWorkerProcessor(config: AppConfig, logger: Logger = silentLogger, entry?: URL): Promise<ImageProcessor> {
  const found = resolveWorkerEntry('batches-worker', { logger, entry });
  if (!found) return localBatchProcessor(config);
  const rpc = startRpcWorker<BatchCall, ProcessedImage>(found, { config }, { name: 'analysis worker', logger });
  try {
    await rpc.started;
  } catch (err) {
    // A build where the worker cannot load its entry still analyses, on this thread.
    logger.warn('batch analysis worker did not start; analysing in-process', { error: String(err) });
    await rpc.close();
    return localBatchProcessor(config);
  }
  return {
    async process(image, operation, signal): Promise<ProcessedImage> {
      const copy = await workingCopy(image.image); // made for the thumbnail already
      const pixels = [image.image, ...(copy !== image.image ? [copy] : [])].map(transferable);
      // The thumbnail stays here: the models need only the pixels and metadata.
      const call: BatchCall = {
        operation,
        image: { ...image, image: pixels[0]!, thumbnail: { ...image.thumbnail, data: new Uint8Array(0) } },
        ...(pixels[1] && { workingCopy: pixels[1] }),
      };
      return rpc.call(
        call,
        signal,
        pixels.map((p) => p.data.buffer),
      );
    },
    close: () => rpc.close(),
    halt: () => rpc.halt(),
  };
}
