import { runModelBranch, type BranchRequest, type BranchResult, type ModelBranch } from '../analysis';
import { transferable, workingCopy, type Box, type ModelRunner, type RgbImage, type TensorMap } from '../inference';
import type { AppConfig } from '../config';
import { silentLogger, type Logger } from '../core';
import { resolveWorkerEntry } from './worker-entry';
import { startRpcWorker, type RpcWorker } from './worker-rpc';

/**
 * One call of the analyze worker: the branch's models on a copy of the pixels, or one model run
 * on a copy of its feeds (a face model while this thread has another in hand: `runModel`).
 */
export type BranchCall = { image: RgbImage; want: BranchRequest } | { model: { id: string; feeds: TensorMap } };
/** The worker's answer: the branch's evidence, or a model run's outputs. */
export type BranchReply = BranchResult | TensorMap;

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
  /** Lets the worker start no more model runs; resolves once those running have returned (`RpcWorker.halt`). */
  halt(): Promise<void>;
  /** True while the worker runs and has no call in hand: its core is free (`spare-core-runner.ts`). */
  idle(): boolean;
  /** Starts the worker now (calls start it too); a worker that cannot start is logged as on a call. */
  start(): void;
  /**
   * Runs one model in the worker on a copy of `feeds` (the caller may reuse its buffers at once);
   * on `local` where the worker has not started or has stopped. Starts the worker.
   */
  runModel(id: string, feeds: TensorMap, local: ModelRunner, signal?: AbortSignal): Promise<TensorMap>;
}

/**
 * Analyze's face-free branch (objects, NSFW, pixel statistics) in a worker thread with its own
 * inference engine, so it runs on one core while the faces run on the calling thread's (ONNX
 * Runtime's `run()` is synchronous on its caller, so within one thread the models never overlap).
 * The worker starts on the first call and stays warm until `close()`. Only a copy of the RGB
 * pixels goes in (transferred, about 3 MB per megapixel; of a large photo, its working copy) and
 * plain evidence comes back (boxes in the photo's px). Where no
 * entry is found (logged as a warning) or the worker does not start or stops, the branch runs
 * on this thread through `fallback`, with the same results.
 */
export function analyzeBranchWorker(config: AppConfig, opts: BranchWorkerOptions): BranchWorker {
  const logger = opts.logger ?? silentLogger;
  let rpc: RpcWorker<BranchCall, BranchReply> | undefined;
  let starting: Promise<RpcWorker<BranchCall, BranchReply> | undefined> | undefined;
  let closed = false;
  /** Calls the worker is answering now. */
  let inHand = 0;

  const start = async (): Promise<RpcWorker<BranchCall, BranchReply> | undefined> => {
    const entry = resolveWorkerEntry('analyze-worker', { logger, entry: opts.entry });
    if (!entry) return undefined;
    const w = startRpcWorker<BranchCall, BranchReply>(entry, { config, threads: opts.threads ?? 1 }, { name: 'analyze worker', logger });
    try {
      await w.started;
      logger.debug('analyze worker started', { threads: opts.threads ?? 1 });
      return w;
    } catch (err) {
      logger.warn('analyze worker did not start; analysing in-process', {
        error: err instanceof Error ? err.message : String(err),
        stack: (err as { workerStack?: string }).workerStack,
      });
      await w.close();
      return undefined;
    }
  };

  /** The worker once started; undefined when it cannot start, has stopped or is closed. */
  const ready = async (): Promise<RpcWorker<BranchCall, BranchReply> | undefined> => {
    if (!closed) {
      starting ??= start();
      rpc = await starting;
    }
    return rpc && !rpc.stopped ? rpc : undefined;
  };

  return {
    async run(img, want, signal) {
      inHand++;
      try {
        // Once the worker has stopped, later calls run in-process; calls in flight failed once.
        const worker = await ready();
        if (!worker) return await opts.fallback(img, want, signal);
        // The face-free models read no more than a large photo's working copy (inference/image.ts),
        // so that is what goes over: 3.7 MB instead of 36 for 12 MP, and the worker need not read
        // the photo in full again. The pixel statistics, when asked for here, measure the photo.
        const sent = want.pixels ? img : await workingCopy(img);
        // One exact-size copy, transferred: the caller keeps its pixels for the faces.
        const image = transferable({ ...sent, lossy: img.lossy });
        const result = (await worker.call({ want, image }, signal, [image.data.buffer])) as BranchResult;
        return sent === img ? result : inImagePx(result, img.width / sent.width, img.height / sent.height);
      } finally {
        inHand--;
      }
    },
    async runModel(id, feeds, local, signal) {
      inHand++;
      try {
        const worker = await ready();
        if (!worker) return await local.run(id, feeds, signal);
        // Copied, not transferred: callers rotate their input buffers (faces/detector.ts).
        return (await worker.call({ model: { id, feeds } }, signal)) as TensorMap;
      } finally {
        inHand--;
      }
    },
    async close() {
      closed = true;
      const w = rpc ?? (starting ? await starting : undefined);
      rpc = undefined;
      await w?.close();
    },
    async halt() {
      closed = true; // no worker starts after this
      const w = rpc ?? (starting ? await starting : undefined);
      await w?.halt();
    },
    idle: () => !closed && !!rpc && !rpc.stopped && inHand === 0,
    start: () => void ready(),
  };
}

/**
 * The analyze worker when the models have two or more threads (`enabled` overrides), with the
 * face-free branch on `runModel` as its fallback; undefined means analyse on this thread. The one
 * rule for interactive analyze (the composition root) and batches (batches-processor.ts).
 */
export function branchWorkerFor(
  config: AppConfig,
  runModel: ModelRunner,
  opts: { enabled?: boolean; logger?: Logger } = {},
): BranchWorker | undefined {
  if (!(opts.enabled ?? config.modelThreads >= 2)) return undefined;
  return analyzeBranchWorker(config, { fallback: (img, want, signal) => runModelBranch(img, want, runModel, signal), logger: opts.logger });
}

/** A branch result on a shrunk copy with its boxes (objects, subject regions) in the image's px. */
export function inImagePx(r: BranchResult, sx: number, sy: number): BranchResult {
  const scale = (b: Box): Box => ({ left: b.left * sx, top: b.top * sy, width: b.width * sx, height: b.height * sy });
  const subject = r.subject && {
    ...r.subject,
    regions: r.subject.regions.map((g) => ({ ...g, box: scale(g.box) })),
    main: r.subject.main && { ...r.subject.main, box: scale(r.subject.main.box) },
    roi: r.subject.roi && scale(r.subject.roi),
  };
  return { ...r, objects: r.objects.map((o) => ({ ...o, box: scale(o.box) })), subject };
}
