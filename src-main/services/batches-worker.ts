import { Worker } from 'node:worker_threads';
import type { AppConfig } from '../config';
import { AppError, silentLogger, type Logger } from '../core';
import type { FetchedImage, ImageProcessor, ProcessedImage } from '../jobs';
import type { WireError } from '../shared/errors';
import { localBatchProcessor } from './batches-processor';
import { resolveWorkerEntry } from './worker-entry';

type Reply =
  | { type: 'ready' }
  | { type: 'closed' }
  | { type: 'init-error'; error: WireError; stack?: string }
  | { type: 'done'; id: number; result: ProcessedImage }
  | { type: 'error'; id: number; error: WireError; stack?: string };

interface Pending {
  resolve: (r: ProcessedImage) => void;
  reject: (e: unknown) => void;
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
  const worker = new Worker(found, { workerData: { config } });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let dead: AppError | undefined;
  const failAll = (err: AppError): void => {
    dead = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  let closed: (() => void) | undefined;
  const started = new Promise<void>((resolve, reject) => {
    worker.on('message', (msg: Reply) => {
      if (msg.type === 'ready') return resolve();
      if (msg.type === 'closed') return closed?.();
      if (msg.type === 'init-error') return reject(new AppError(msg.error.code, msg.error.message, { details: msg.error.details }));
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.type === 'done') p.resolve(msg.result);
      else {
        if (msg.error.code === 'internal') logger.error('batch analysis failed in the worker', { stack: msg.stack });
        p.reject(new AppError(msg.error.code, msg.error.message, { details: msg.error.details }));
      }
    });
    worker.on('error', (err) => {
      logger.error('batch analysis worker crashed', { error: String(err.stack ?? err) });
      failAll(new AppError('model-failed', 'The analysis worker stopped unexpectedly.', { cause: err }));
      reject(err);
    });
    worker.on('exit', () => failAll(new AppError('model-failed', 'The analysis worker has stopped.')));
  });
  try {
    await started;
  } catch (err) {
    // A build where the worker cannot load its entry still analyses, on this thread.
    logger.warn('batch analysis worker did not start; analysing in-process', { error: String(err) });
    await worker.terminate();
    return localBatchProcessor(config);
  }
  return {
    process(image: FetchedImage, operation, signal): Promise<ProcessedImage> {
      if (dead) return Promise.reject(dead);
      if (signal.aborted) return Promise.reject(new AppError('cancelled', 'The operation was cancelled.'));
      const id = nextId++;
      return new Promise<ProcessedImage>((resolve, reject) => {
        const onAbort = (): void => worker.postMessage({ type: 'cancel', id });
        signal.addEventListener('abort', onAbort, { once: true });
        const settle = (): void => signal.removeEventListener('abort', onAbort);
        pending.set(id, { resolve: (r) => (settle(), resolve(r)), reject: (e) => (settle(), reject(e)) });
        // The thumbnail stays here: the models need only the pixels and metadata.
        worker.postMessage({
          type: 'process',
          id,
          operation,
          image: { ...image, thumbnail: { ...image.thumbnail, data: new Uint8Array(0) } },
        });
      });
    },
    async close() {
      if (dead) return;
      await new Promise<void>((resolve) => {
        closed = resolve;
        worker.postMessage({ type: 'close' });
        setTimeout(resolve, 5_000).unref();
      });
      await worker.terminate();
    },
  };
}
