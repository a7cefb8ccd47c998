import { Worker } from 'node:worker_threads';
import type { BranchRequest, BranchResult, ModelBranch } from '../analysis';
import type { RgbImage } from '../inference';
import type { AppConfig } from '../config';
import { AppError, silentLogger, type Logger } from '../core';
import type { WireError } from '../shared/errors';
import { resolveWorkerEntry } from './worker-entry';

type Reply =
  | { type: 'ready' }
  | { type: 'closed' }
  | { type: 'init-error'; error: WireError; stack?: string }
  | { type: 'done'; id: number; result: BranchResult }
  | { type: 'error'; id: number; error: WireError; stack?: string };

interface Pending {
  resolve: (r: BranchResult) => void;
  reject: (e: unknown) => void;
}

/** Options of `analyzeBranchWorker`. */
export interface BranchWorkerOptions {
  /** Runs the branch on this thread: used when the worker cannot start or has stopped. */
  fallback: ModelBranch;
  /** ONNX Runtime threads per session in the worker; default 1 (the faces keep the other core). */
  threads?: number;
  logger?: Logger;
  /** Worker entry (tests); default the bundled or the boot file, see `resolveWorkerEntry`. */
  entry?: URL;
}

/** A `ModelBranch` that runs in a worker thread, plus `close()` for the worker and its models. */
export interface BranchWorker {
  run: ModelBranch;
  close(): Promise<void>;
}

/**
 * Analyze's face-free branch (objects, NSFW, pixel statistics) in a worker thread with its own
 * inference engine, so it runs on one core while the faces run on the calling thread's (ONNX
 * Runtime's `run()` is synchronous on its caller, so within one thread the models never overlap).
 * The worker starts on the first call and stays warm until `close()`. Only a copy of the RGB
 * pixels goes in (transferred, about 3 MB per megapixel) and plain evidence comes back. Where no
 * entry is found (logged as a warning) or the worker does not start or stops, the branch runs
 * on this thread through `fallback`, with the same results.
 */
export function analyzeBranchWorker(config: AppConfig, opts: BranchWorkerOptions): BranchWorker {
  const logger = opts.logger ?? silentLogger;
  let worker: Worker | undefined;
  let starting: Promise<Worker | undefined> | undefined;
  let stopped = false;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed: (() => void) | undefined;

  const failAll = (err: AppError): void => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };

  const start = (): Promise<Worker | undefined> => {
    const entry = resolveWorkerEntry('analyze-worker', { logger, entry: opts.entry });
    if (!entry) return Promise.resolve(undefined);
    const w = new Worker(entry, { workerData: { config, threads: opts.threads ?? 1 } });
    return new Promise<Worker | undefined>((resolve) => {
      let ready = false;
      w.on('message', (msg: Reply) => {
        if (msg.type === 'ready') return void ((ready = true), resolve(w));
        if (msg.type === 'closed') return closed?.();
        if (msg.type === 'init-error') {
          logger.warn('analyze worker did not start; analysing in-process', { error: msg.error.message, stack: msg.stack });
          void w.terminate();
          return resolve(undefined);
        }
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        if (msg.type === 'done') p.resolve(msg.result);
        else {
          if (msg.error.code === 'internal') logger.error('analysis failed in the analyze worker', { stack: msg.stack });
          p.reject(new AppError(msg.error.code, msg.error.message, { details: msg.error.details }));
        }
      });
      w.on('error', (err) => {
        logger.error('analyze worker crashed', { error: String(err.stack ?? err) });
        failAll(new AppError('model-failed', 'The analyze worker stopped unexpectedly.', { cause: err }));
        if (!ready) resolve(undefined);
      });
      w.on('exit', () => {
        // Later calls run in-process; calls in flight fail once.
        if (worker === w) worker = undefined;
        stopped = true;
        failAll(new AppError('model-failed', 'The analyze worker has stopped.'));
        if (!ready) resolve(undefined);
      });
    });
  };

  const inWorker = (w: Worker, img: RgbImage, want: BranchRequest, signal?: AbortSignal): Promise<BranchResult> => {
    if (signal?.aborted) return Promise.reject(new AppError('cancelled', 'The operation was cancelled.'));
    const id = nextId++;
    return new Promise<BranchResult>((resolve, reject) => {
      const onAbort = (): void => w.postMessage({ type: 'cancel', id });
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (): void => signal?.removeEventListener('abort', onAbort);
      pending.set(id, { resolve: (r) => (settle(), resolve(r)), reject: (e) => (settle(), reject(e)) });
      // One exact-size copy, transferred: the caller keeps its pixels for the faces.
      const data = new Uint8Array(img.data);
      w.postMessage({ type: 'run', id, want, image: { data, width: img.width, height: img.height } }, [data.buffer]);
    });
  };

  return {
    async run(img, want, signal) {
      if (!stopped && !worker) {
        starting ??= start().then((w) => {
          if (w) worker = w;
          else stopped = true;
          return w;
        });
        await starting;
      }
      return worker ? inWorker(worker, img, want, signal) : opts.fallback(img, want, signal);
    },
    async close() {
      stopped = true;
      const w = worker ?? (starting ? await starting : undefined);
      worker = undefined;
      if (!w) return;
      await new Promise<void>((resolve) => {
        closed = resolve;
        w.postMessage({ type: 'close' });
        setTimeout(resolve, 5_000).unref();
      });
      await w.terminate();
    },
  };
}
