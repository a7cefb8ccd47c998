import { hostname } from 'node:os';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { AppError, isCancellation, sleep, type Logger } from '../../core';
import type { UnavailableHost } from '../../shared/batch';
import {
  DEFAULT_RETRY,
  isTransient,
  retryDelayMs,
  type FetchedImage,
  type ImageFetcher,
  type ImageProcessor,
  type RetryPolicy,
} from '../../jobs';
import { connectionOptions } from './connection';
import { analyzeQueueName, keys, PREFIX, resultJobId, resultsQueueName } from './keys';
import type { AnalyzeJob, ResultJob, WorkerBeat } from './protocol';
import type { RedisAddress } from './redis-url';
import { within } from './deadline';
import { repeatedWarnings } from './repeated-warnings';

/** What a worker process needs: its models and fetcher (built by the host), and Redis. */
export interface WorkerHostOptions {
  redis: RedisAddress;
  /** sha256 of this install's model manifest. */
  modelSet: string;
  processor: ImageProcessor;
  fetcher: ImageFetcher;
  name: string;
  version: string;
  /** Jobs at once (fetch + analyse each). */
  concurrency: number;
  logger: Logger;
  retry?: RetryPolicy;
  /** BullMQ lock: a job whose worker stops renewing it for this long is given to another. Default 30 000 ms. */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for. Default 15 000 ms. */
  stalledIntervalMs?: number;
  /** Heartbeat period, ms. Default 2 000. */
  beatMs?: number;
}

/** A running worker: `close()` finishes the jobs in hand (or, after `graceMs`, hands them back). */
export interface WorkerHost {
  readonly name: string;
  /** Images analysed (done results) since start. */
  processed(): number;
  /**
   * Stops taking jobs and waits up to `graceMs` for those in hand, then aborts them. Resolves
   * false when BullMQ did not close even then (Redis unreachable): the connections were dropped
   * and jobs in hand go back through the queue's stalled-job check once their locks lapse.
   */
  close(graceMs?: number): Promise<boolean>;
}

/** After the grace time, how long a forced BullMQ close may take before the connections are dropped, ms. */
const FORCED_CLOSE_MS = 1_000;

/** Failure codes that come from this worker's models rather than from the image. */
const MODEL_ERRORS: ReadonlySet<string> = new Set(['model-missing', 'model-failed']);

/** A job put aside for `ms` because its image host is unavailable (jobs/host-breaker.ts `holdFor`). */
class HeldForHost extends Error {
  constructor(readonly ms: number) {
    super(`held ${ms} ms for its image host`);
  }
}

/** Default worker name: host and process id, unique on a network of machines. */
export const defaultWorkerName = (): string => `${hostname()}:${process.pid}`;

/**
 * Starts a distributed worker: takes analysis jobs for this install's model set from Redis,
 * fetches each image under this machine's network policy, asks the batch whether those bytes
 * were already claimed, analyses them and returns the result to the coordinator's queue.
 * Reconnects with backoff when Redis goes away; reports its name, version and rate.
 */
export async function startWorker(o: WorkerHostOptions): Promise<WorkerHost> {
  const connection = connectionOptions(o.redis);
  const redis = new Redis(o.redis.url, connection as object);
  const log = o.logger;
  const warnings = repeatedWarnings((message) => log.warn(message, { redis: o.redis.redacted }));
  const onError = (what: string) => (err: Error) => warnings.warn(err.message, `redis ${what}: ${err.message}`);
  redis.on('error', onError('connection'));
  redis.on('ready', () => {
    warnings.reset();
    log.info(`connected to Redis ${o.redis.redacted}`);
  });
  const retry = o.retry ?? DEFAULT_RETRY;
  const resultQueues = new Map<string, Queue<ResultJob>>();
  const finishedAt: number[] = [];
  let processed = 0;
  const inHand = new Set<AbortController>();

  const resultsOf = (queueKey: string): Queue<ResultJob> => {
    let q = resultQueues.get(queueKey);
    if (!q) {
      q = new Queue<ResultJob>(resultsQueueName(queueKey), { connection, prefix: PREFIX });
      q.on('error', onError('results queue'));
      resultQueues.set(queueKey, q);
    }
    return q;
  };
  // The fetcher's host breaker counts a batch's waiting URLs under a number: one per queue key.
  const batchNumbers = new Map<string, number>();
  let lastBatchNumber = 0;
  const batchNumberOf = (queueKey: string): number => {
    let n = batchNumbers.get(queueKey);
    if (n === undefined) batchNumbers.set(queueKey, (n = ++lastBatchNumber));
    return n;
  };
  /** Jobs in hand per queue key: a batch's state here is dropped only when it has none. */
  const jobsOf = new Map<string, number>();
  /**
   * Drops what this worker keeps per batch once the batch is no longer announced and it holds
   * none of its jobs: its number and its results queue, whose Redis connection would otherwise
   * stay open for as long as the worker runs (one per batch it ever worked for).
   */
  const forgetEnded = (announced: ReadonlySet<string>): void => {
    for (const queueKey of new Set([...resultQueues.keys(), ...batchNumbers.keys()])) {
      if (announced.has(queueKey) || (jobsOf.get(queueKey) ?? 0) > 0) continue;
      batchNumbers.delete(queueKey);
      const q = resultQueues.get(queueKey);
      resultQueues.delete(queueKey);
      // Closed like at the worker's close: a close Redis does not answer drops the connection.
      if (q)
        void within(
          q.close().then(() => true),
          5_000,
          false,
        )
          .then(
            (closed) => (closed ? undefined : q.disconnect()),
            () => q.disconnect(),
          )
          .catch(() => undefined);
    }
  };
  /** Per batch, the unavailable hosts its fetches here wait for (for the heartbeat). */
  const unavailableHosts = (): Record<string, UnavailableHost[]> | undefined => {
    const out: Record<string, UnavailableHost[]> = {};
    for (const [queueKey, n] of batchNumbers) {
      const hosts = o.fetcher.unavailableHosts?.(n) ?? [];
      if (hosts.length) out[queueKey] = hosts;
    }
    return Object.keys(out).length ? out : undefined;
  };
  /**
   * The batch was cancelled and its coordinator has removed it from Redis (batch-cleanup.ts):
   * nobody will read its results, and a write would put back what the clean-up removed. While a
   * cancelled batch is still announced, its coordinator waits for the items it gave out.
   */
  const ended = async (queueKey: string): Promise<boolean> => {
    if ((await redis.get(keys.control(queueKey))) !== 'cancelled') return false; // one command per check, as a rule
    return (await redis.hexists(keys.batches, queueKey)) === 0;
  };
  const post = async (queueKey: string, r: ResultJob): Promise<void> => {
    if (await ended(queueKey)) return;
    // Retried by BullMQ if the coordinator's write fails (a busy database); stored once.
    await resultsOf(queueKey).add('result', r, { jobId: resultJobId(r.itemId), attempts: 5, backoff: { type: 'exponential', delay: 500 } });
  };

  async function withRetries<T>(step: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (err) {
        if (!isTransient(err) || attempt + 1 >= retry.maxAttempts || signal.aborted) throw err;
        await sleep(retryDelayMs(attempt, retry), signal);
      }
    }
  }

  async function handle(job: Job<AnalyzeJob>, token?: string): Promise<void> {
    const { queueKey, itemId } = job.data;
    const base = { itemId, worker: o.name };
    if (job.data.modelSet !== o.modelSet) {
      // Queue names carry the model set, so this only happens with a hand-made job.
      throw new AppError(
        'invalid-input',
        `Job ${job.id} is for model set ${job.data.modelSet.slice(0, 12)}…; this worker has ${o.modelSet.slice(0, 12)}….`,
      );
    }
    jobsOf.set(queueKey, (jobsOf.get(queueKey) ?? 0) + 1);
    try {
      await handleFor(job, token, base);
    } finally {
      const left = (jobsOf.get(queueKey) ?? 1) - 1;
      if (left > 0) jobsOf.set(queueKey, left);
      else jobsOf.delete(queueKey);
    }
  }

  async function handleFor(job: Job<AnalyzeJob>, token: string | undefined, base: { itemId: number; worker: string }): Promise<void> {
    const { queueKey, itemId, url, operation } = job.data;
    const control = await redis.get(keys.control(queueKey));
    if (control === 'paused' || control === 'cancelled') return post(queueKey, { ...base, fetchMs: 0, kind: 'returned' });
    const ctl = new AbortController();
    inHand.add(ctl);
    const started = Date.now();
    try {
      let image: FetchedImage;
      try {
        const batchId = batchNumberOf(queueKey);
        image = await withRetries(() => {
          // A job for an unavailable image host waits in Redis (delayed), not in one of this
          // worker's places, so the jobs for other hosts go on meanwhile.
          const holdMs = token ? (o.fetcher.holdFor?.(url, batchId) ?? 0) : 0;
          if (holdMs > 0) throw new HeldForHost(holdMs);
          return o.fetcher.fetch(url, ctl.signal, { batchId });
        }, ctl.signal);
      } catch (err) {
        if (err instanceof HeldForHost) {
          await job.moveToDelayed(Date.now() + err.ms, token);
          throw new DelayedError();
        }
        if (ctl.signal.aborted && isCancellation(err)) throw err; // shutting down: the job goes back
        return await post(queueKey, { ...base, fetchMs: Date.now() - started, ...failure(err) });
      }
      const fetchMs = Date.now() - started;
      if (await ended(queueKey)) return; // cancelled while the image came: nothing to analyse for
      // Cross-worker de-duplication: the first item to claim these bytes analyses them.
      const claimed = await redis.hsetnx(keys.seen(queueKey), image.sha256, String(itemId));
      if (claimed === 0) {
        const owner = Number(await redis.hget(keys.seen(queueKey), image.sha256));
        if (owner && owner !== itemId)
          return await post(queueKey, { ...base, fetchMs, kind: 'duplicate', sha256: image.sha256, of: owner });
      }
      const t0 = Date.now();
      try {
        const result = await withRetries(() => o.processor.process(image, operation, ctl.signal), ctl.signal);
        const thumb = image.thumbnail;
        await post(queueKey, {
          ...base,
          fetchMs,
          kind: 'done',
          analyzeMs: Date.now() - t0,
          processed: result,
          image: {
            sha256: image.sha256,
            metadata: image.metadata,
            thumbnail: {
              mimeType: thumb.mimeType,
              width: thumb.width,
              height: thumb.height,
              base64: Buffer.from(thumb.data).toString('base64'),
            },
          },
        });
        processed++;
        finishedAt.push(Date.now());
      } catch (err) {
        if (ctl.signal.aborted && isCancellation(err)) throw err;
        const f = failure(err);
        // A model error is this worker's fault, not the image's: the operator must see it.
        if (MODEL_ERRORS.has(f.code)) log.warn(`item ${itemId} failed: ${f.message}`, { itemId, code: f.code, queueKey });
        await post(queueKey, { ...base, fetchMs, ...f });
      }
    } finally {
      inHand.delete(ctl);
    }
  }

  const worker = new Worker<AnalyzeJob>(analyzeQueueName(o.modelSet), handle, {
    connection,
    prefix: PREFIX,
    concurrency: o.concurrency,
    lockDuration: o.lockDurationMs ?? 30_000,
    stalledInterval: o.stalledIntervalMs ?? 15_000,
    // A job whose worker died goes back to the queue; after 5 such deaths it fails and the
    // coordinator's reconciliation adds it again.
    maxStalledCount: 5,
  });
  worker.on('error', onError('worker'));
  worker.on('failed', (job, err) => log.warn('distributed job failed', { jobId: job?.id, error: err.message }));

  const rate = (): number => {
    const now = Date.now();
    while (finishedAt.length && now - finishedAt[0]! > 60_000) finishedAt.shift();
    return Math.round((finishedAt.length / 60) * 100) / 100;
  };
  const warned = new Set<string>();
  const beat = async (): Promise<void> => {
    const b: WorkerBeat = {
      name: o.name,
      version: o.version,
      modelSet: o.modelSet,
      pid: process.pid,
      host: hostname(),
      concurrency: o.concurrency,
      processed,
      imagesPerSecond: rate(),
      unavailableHosts: unavailableHosts(),
      at: Date.now(),
    };
    await redis.hset(keys.workers, o.name, JSON.stringify(b));
    const announced = await redis.hgetall(keys.batches);
    forgetEnded(new Set(Object.keys(announced)));
    // Batches announced for another model set never reach this worker's queue: say why.
    for (const [queueKey, modelSet] of Object.entries(announced)) {
      if (modelSet === o.modelSet || warned.has(queueKey)) continue;
      warned.add(queueKey);
      log.warn(
        `Refusing batch ${queueKey}: it was made for model set ${modelSet.slice(0, 12)}…, this worker has ${o.modelSet.slice(0, 12)}…. Install the same picscan version and models as the coordinator.`,
      );
    }
  };
  const beatTimer = setInterval(() => void beat().catch(() => undefined), o.beatMs ?? 2_000);
  beatTimer.unref();
  // Not awaited: while Redis is away the worker waits for it (reconnecting with backoff).
  void beat().catch(() => undefined);
  log.info(
    `picscan worker ${o.name} (${o.version}) ready: ${o.concurrency} at once, model set ${o.modelSet.slice(0, 12)}…, Redis ${o.redis.redacted}`,
  );

  return {
    name: o.name,
    processed: () => processed,
    async close(graceMs = 30_000) {
      clearInterval(beatTimer);
      // Finish the jobs in hand; after the grace time abort them: their locks lapse and BullMQ's
      // stalled-job check hands them to another worker.
      const force = setTimeout(() => {
        for (const c of inHand) c.abort();
        void worker.close(true).catch(() => undefined);
      }, graceMs);
      // BullMQ's close waits for Redis; without it (down, or refusing the password) it never
      // settles, forced or not. Then drop the connections instead of waiting on them.
      const settled = await within(
        worker.close().then(() => true),
        graceMs + FORCED_CLOSE_MS,
        false,
      );
      clearTimeout(force);
      if (settled) {
        await within(redis.hdel(keys.workers, o.name), 1_000, 0);
        await within(Promise.allSettled([...resultQueues.values()].map((q) => q.close())), 5_000, []);
      } else {
        void worker.disconnect().catch(() => undefined);
        for (const q of resultQueues.values()) void q.disconnect().catch(() => undefined);
      }
      redis.disconnect();
      return settled;
    },
  };
}

function failure(err: unknown): { kind: 'failed'; code: AppError['code']; message: string } {
  if (err instanceof AppError) return { kind: 'failed', code: err.code, message: err.message };
  return { kind: 'failed', code: 'internal', message: 'An unexpected internal error occurred.' };
}
