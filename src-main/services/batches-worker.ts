import type { AppConfig } from '../config';
import { silentLogger, type Logger } from '../core';
import type { FetchedImage, ImageProcessor, ProcessedImage } from '../jobs';
import type { BatchOperation } from '../shared/batch';
import { localBatchProcessor } from './batches-processor';
import { resolveWorkerEntry } from './worker-entry';
import { startRpcWorker } from './worker-rpc';

/** One call of the batch worker: an image the batch fetched, and what to do with it. */
export interface BatchCall {
  image: FetchedImage;
  operation: BatchOperation;
}

/**
 * The local backend in a worker thread: the models and their JavaScript pre/post-processing run
 * off this thread, so a batch keeps the host's event loop (the UI bridge, the HTTP server)
 * responsive. One worker holds one set of models; ONNX Runtime still uses `modelThreads` cores
 * and several images are in flight at once. Only the pixels and metadata cross the thread (a
 * structured clone of about 1 MB per image). Throws `model-missing` like the in-process one.
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
    process(image, operation, signal): Promise<ProcessedImage> {
      // The thumbnail stays here: the models need only the pixels and metadata.
      return rpc.call({ operation, image: { ...image, thumbnail: { ...image.thumbnail, data: new Uint8Array(0) } } }, signal);
    },
    close: () => rpc.close(),
  };
}
