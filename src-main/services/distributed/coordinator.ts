import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { AppError, sleep, type Logger } from '../../core';
import { MAX_WAITING_FOR_HOSTS, type ItemTransition, type RunOutcome } from '../../jobs';
import type { BatchOperation, UnavailableHost, WorkerStatus } from '../../shared/batch';
import { isBusyError, isStorageError, RedisLeftoversRepo, type Db, type ItemsRepo, type ResultsRepo } from '../../store';
import { forgetBatch, sweepLeftovers } from './batch-cleanup';
import { checkRedis, connectionOptions } from './connection';
import { analyzeJobId, analyzeQueueName, keys, PREFIX, resultJobId, resultsQueueName } from './keys';
import type { AnalyzeJob, BatchControl, ResultJob } from './protocol';
import type { RedisAddress } from './redis-url';
import { ResultWriter } from './result-writer';
import { within } from './deadline';
import { writeRefusedError } from './write-refused';
import { RedisHealth } from './redis-health';
import { repeatedWarnings } from './repeated-warnings';

/** How long the coordinator waits for Redis to answer at the start of a run, ms. */
export const REDIS_CONNECT_TIMEOUT_MS = 5_000;
/** Upper bound for one Redis call while stopping (Redis may be down then), ms. */
const STOP_CALL_MS = 1_000;
/** How long the results consumer may take to close (it finishes the results it is writing), ms. */
const CONSUMER_CLOSE_MS = 10_000;
/** How long the queues may take to close, ms. */
const QUEUE_CLOSE_MS = 5_000;
import { WorkerRoster } from './worker-roster';

/** Tunables of a coordinator run (ms and counts). */
export interface CoordinatorTuning {
  /** Items in Redis at once (waiting + being analysed); never the whole list. Default 256. */
  maxBacklog: number;
  /** How often in-flight items are checked against Redis (a lost job is re-added). Default 5 000. */
  reconcileMs: number;
  /** On pause or cancel, how long to wait for items workers already started. Default 30 000. */
  drainMs: number;
  /** Heartbeat polling for the progress line. Default 2 000. */
  rosterMs: number;
}

export const DEFAULT_TUNING: CoordinatorTuning = { maxBacklog: 256, reconcileMs: 5_000, drainMs: 30_000, rosterMs: 2_000 };

/** What one coordinator run needs. */
export interface CoordinatorDeps {
  db: Db;
  items: ItemsRepo;
  results: ResultsRepo;
  logger: Logger;
}

export interface CoordinatorSettings {
  batchId: number;
  queueKey: string;
  operation: BatchOperation;
  opKey: string;
  modelSet: string;
  redis: RedisAddress;
  tuning?: Partial<CoordinatorTuning>;
  onTransition: (t: ItemTransition, info: { itemId: number }) => void;
}

const CLAIM_CHUNK = 256;
/** Jobs added per Redis round trip. */
const ADD_CHUNK = 64;

/**
 * Runs one distributed batch: streams queued items into the model set's BullMQ queue with a
 * bounded backlog and idempotent job ids, consumes workers' results from the batch's results
 * queue into SQLite (the single source of truth), re-adds jobs Redis lost (a restart without
 * persistence, a worker that died twice) and propagates pause and cancel. Same contract as
 * the local BatchRunner: `run()` resolves 'finished' or 'stopped'.
 */
export class DistributedRunner {
  private readonly t: CoordinatorTuning;
  private readonly stopCtl = new AbortController();
  private stopAs: BatchControl = 'paused';
  /** In-flight item id → when its job was (re-)added (ms). */
  private readonly outstanding = new Map<number, number>();
  private readonly roster: WorkerRoster;
  private readonly health: RedisHealth;
  /** Ended batches whose Redis state is still to be removed (batch-cleanup.ts). */
  private readonly leftovers: RedisLeftoversRepo;
  private wake: (() => void) | null = null;

  constructor(
    private readonly d: CoordinatorDeps,
    private readonly s: CoordinatorSettings,
  ) {
    this.t = { ...DEFAULT_TUNING, ...s.tuning };
    this.roster = new WorkerRoster(s.modelSet);
    this.health = new RedisHealth(s.redis.redacted);
    this.leftovers = new RedisLeftoversRepo(d.db);
  }

  private storageFailure: unknown;

  /** The database error that stopped the run, if any. */
  get storageError(): unknown {
    return this.storageFailure;
  }

  /** Workers serving this batch, for the progress line. */
  workers(): WorkerStatus[] {
    return this.roster.list();
  }

  /** Connected workers with other models (version or manifest), which take none of this batch's items. */
  mismatchedWorkers(): string[] {
    return this.roster.mismatched();
  }

  /** The unavailable image hosts the workers' fetches of this batch wait for, for the progress line. */
  unavailableHosts(): UnavailableHost[] {
    return this.roster.unavailableHosts(this.s.queueKey);
  }

  /** What is wrong with Redis right now (unreachable, refusing writes), for the progress line. */
  redisTrouble(): string | undefined {
    return this.health.describe();
  }

  /** Stops feeding; `as` tells the workers whether the batch is paused or cancelled. */
  stop(as: BatchControl = 'paused'): void {
    this.stopAs = as;
    this.stopCtl.abort();
    this.wake?.();
  }

  get stopping(): boolean {
    return this.stopCtl.signal.aborted;
  }

  async run(): Promise<RunOutcome> {
    const connection = connectionOptions(this.s.redis);
    const log = this.d.logger;
    const warnings = repeatedWarnings((message) => log.warn(message, { redis: this.s.redis.redacted }));
    const onError = (what: string) => (err: Error) => warnings.warn(err.message, `redis ${what}: ${err.message}`);
    // Reach Redis first, with a one-shot client: when it is not there, or refuses the password or
    // the database, nothing has been created that would go on reconnecting and keep the process
    // alive (and nothing runs in database 0 instead of a missing one).
    const check = await checkRedis(this.s.redis, REDIS_CONNECT_TIMEOUT_MS);
    if (!check.reachable) {
      throw new AppError(
        'remote-failed',
        `Cannot reach Redis at ${this.s.redis.redacted} within ${REDIS_CONNECT_TIMEOUT_MS / 1000} s (${check.reason}): start it, or check the URL, password and network; then resume the batch.`,
      );
    }
    const redis = new Redis(this.s.redis.url, connection as object);
    redis.on('error', (err: Error) => {
      // A command's error is its caller's; only connection errors come as events.
      this.health.unreachable(err.message);
      onError('connection')(err);
    });
    redis.on('ready', () => {
      warnings.reset();
      this.health.reachable();
    });
    const analyze = new Queue<AnalyzeJob>(analyzeQueueName(this.s.modelSet), { connection, prefix: PREFIX });
    const resultsName = resultsQueueName(this.s.queueKey);
    const resultsQueue = new Queue<ResultJob>(resultsName, { connection, prefix: PREFIX });
    analyze.on('error', onError('analyze queue'));
    resultsQueue.on('error', onError('results queue'));

    const writer = new ResultWriter({
      db: this.d.db,
      items: this.d.items,
      results: this.d.results,
      batchId: this.s.batchId,
      opKey: this.s.opKey,
      onTransition: (t, itemId) => {
        if (t !== 'claimed') this.outstanding.delete(itemId);
        this.s.onTransition(t, { itemId });
      },
    });
    const consumer = new Worker<ResultJob>(
      resultsName,
      async (job: Job<ResultJob>) => {
        let effect: ReturnType<ResultWriter['apply']>;
        try {
          effect = writer.apply(job.data);
        } catch (err) {
          // A database that refuses writes (full, I/O error, read-only) or stays locked pauses the
          // batch; the result stays in Redis (the job fails and is retried) for the resume.
          if (isBusyError(err) || isStorageError(err)) {
            this.storageFailure ??= err;
            this.stop('paused');
          }
          throw err;
        }
        // Taking a result is a write that Redis accepted: whatever was wrong with it is over, even
        // before the other connections notice (each reconnects on its own schedule).
        this.health.writable();
        if (effect !== 'ignored') this.roster.noteResult(job.data.worker);
        if (effect !== 'waiting') this.outstanding.delete(job.data.itemId);
        this.wake?.();
      },
      { connection, prefix: PREFIX, concurrency: 32, removeOnComplete: { count: 0 }, removeOnFail: { count: 1000 } },
    );
    consumer.on('error', onError('results consumer'));

    // Also the periodic write that tells whether Redis still accepts writes.
    const announce = async (): Promise<void> => {
      try {
        await redis.hset(keys.batches, this.s.queueKey, this.s.modelSet);
        await redis.set(keys.control(this.s.queueKey), 'running');
      } catch (err) {
        this.health.writeFailed(err);
        throw err;
      }
      this.health.writable();
    };
    const timers: NodeJS.Timeout[] = [];
    try {
      // The first write of the run: a Redis that is full or read-only refuses it, and would refuse
      // every job and result after it.
      await announce().catch((err: unknown) => {
        throw writeRefusedError(this.s.redis, err);
      });
      // What batches of this database left on this Redis when they were cancelled or deleted
      // while it was away: removed beside the run, which does not wait for it.
      void sweepLeftovers({ redis, modelSet: this.s.modelSet }, this.s.redis, this.leftovers).then(
        (n) => n > 0 && log.info(`removed what ${n} ended batch(es) had left in Redis`),
        (err: unknown) => log.warn('could not remove what ended batches left in Redis', { error: String(err) }),
      );
      let reconciling = false;
      timers.push(
        setInterval(() => {
          if (reconciling) return;
          reconciling = true;
          void this.reconcile(analyze, resultsQueue, writer, announce)
            .catch((err: unknown) => log.warn('reconcile failed', { error: String(err) }))
            .finally(() => (reconciling = false));
        }, this.t.reconcileMs),
        setInterval(() => void this.roster.refresh(redis).catch(() => undefined), this.t.rosterMs),
      );
      for (const t of timers) t.unref();
      void this.roster.refresh(redis).catch(() => undefined);

      await this.feed(analyze);
      // Everything is queued: wait for the last results (or a stop).
      while (!this.stopping && (this.outstanding.size > 0 || writer.parked > 0)) await this.nap();
      if (this.stopping) await this.drain(redis, analyze);
      return this.stopping ? 'stopped' : 'finished';
    } finally {
      for (const t of timers) clearInterval(t);
      // BullMQ's closes wait for Redis. The results consumer first waits for the jobs in hand: with
      // Redis away it never got further, and its lock-renewal timer kept the process alive for good
      // after it had said the batch paused. It is then closed at once (a result it was writing
      // stays in Redis and is stored once by the resume), and the queues' connections, which would
      // go on reconnecting, are dropped.
      const reachable = await within(
        redis.ping().then(() => true),
        STOP_CALL_MS,
        false,
      );
      const consumerClosed = await within(
        consumer.close(!reachable).then(() => true),
        CONSUMER_CLOSE_MS,
        false,
      );
      if (!consumerClosed) void consumer.disconnect().catch(() => undefined);
      if (!this.stopping || this.stopAs === 'cancelled') {
        const end = this.stopping ? 'cancelled' : 'finished';
        const forgotten = await within(
          forgetBatch({ redis, modelSet: this.s.modelSet }, this.s.queueKey, end).then(() => true),
          STOP_CALL_MS * 3,
          false,
        );
        // Redis away (or slow): the next distributed run on it removes what this batch left.
        if (!forgotten) this.leftovers.note({ queueKey: this.s.queueKey, redisUrl: this.s.redis.stored });
      }
      const queues = [analyze, resultsQueue];
      const queuesClosed = await within(
        Promise.allSettled(queues.map((q) => q.close())).then(() => true),
        QUEUE_CLOSE_MS,
        false,
      );
      if (!queuesClosed) for (const q of queues) void q.disconnect().catch(() => undefined);
      redis.disconnect();
    }
  }

  /** Adds queued items as jobs while the backlog has room, in bulk (one round trip per chunk). */
  private async feed(analyze: Queue<AnalyzeJob>): Promise<void> {
    let cursor = 0;
    while (!this.stopping) {
      const chunk = this.d.items.nextQueued(this.s.batchId, cursor, CLAIM_CHUNK);
      if (chunk.length === 0) return;
      let pending: Array<{ id: number; url: string }> = [];
      const flush = async (): Promise<void> => {
        if (pending.length) await this.addJobs(analyze, pending);
        pending = [];
      };
      for (const item of chunk) {
        while (!this.stopping && this.backlogFull()) {
          await flush();
          await this.nap();
        }
        if (this.stopping) break;
        cursor = item.id;
        if (!this.d.items.markFetching(item.id)) continue;
        this.outstanding.set(item.id, Date.now());
        this.s.onTransition('claimed', { itemId: item.id });
        pending.push(item);
        if (pending.length >= ADD_CHUNK) await flush();
      }
      await flush();
    }
  }

  /**
   * The backlog is full at `maxBacklog` items in Redis, plus the jobs the workers report waiting
   * for unavailable image hosts (bounded): those hold no worker, so the other hosts' images keep
   * coming. (The workers' reports are looked at only once the plain bound is reached.)
   */
  private backlogFull(): boolean {
    const n = this.outstanding.size;
    if (n < this.t.maxBacklog) return false;
    const waiting = this.roster.unavailableHosts(this.s.queueKey).reduce((sum, h) => sum + h.waiting, 0);
    return n >= this.t.maxBacklog + Math.min(MAX_WAITING_FOR_HOSTS, waiting);
  }

  private async addJobs(analyze: Queue<AnalyzeJob>, items: Array<{ id: number; url: string }>): Promise<void> {
    // Retried by the worker itself (the batch retry policy); BullMQ's own recovery covers crashes.
    await analyze.addBulk(
      items.map((item) => ({
        name: 'analyze',
        data: { queueKey: this.s.queueKey, itemId: item.id, url: item.url, operation: this.s.operation, modelSet: this.s.modelSet },
        opts: { jobId: analyzeJobId(this.s.queueKey, item.id), removeOnComplete: true, removeOnFail: true },
      })),
    );
  }

  /**
   * Finds in-flight items that Redis no longer knows (no analyze job, no result waiting) and adds
   * their jobs again; re-announces the batch, which a Redis restart without persistence forgets.
   */
  private async reconcile(
    analyze: Queue<AnalyzeJob>,
    results: Queue<ResultJob>,
    writer: ResultWriter,
    announce: () => Promise<void>,
  ): Promise<void> {
    if (this.stopping) return;
    await announce();
    const now = Date.now();
    const suspects: number[] = [];
    for (const [itemId, since] of this.outstanding) {
      if (now - since >= this.t.reconcileMs && !writer.isParked(itemId)) suspects.push(itemId);
    }
    for (const itemId of suspects) {
      if (this.stopping) return;
      const job = await analyze.getJob(analyzeJobId(this.s.queueKey, itemId));
      if (job && !(await job.isFailed())) continue;
      // A result waiting for this coordinator is not lost. Looked up after the analyze job, never
      // from an earlier snapshot: a worker posts its result before its job completes and is removed,
      // so a job that finished after the snapshot was re-added and its image fetched twice.
      const result = await results.getJob(resultJobId(itemId));
      if (result && !(await result.isFailed())) continue;
      // Written meanwhile (the results worker writes before its job completes and is removed).
      if (!this.outstanding.has(itemId) || this.d.items.status(itemId) !== 'fetching') continue;
      const url = this.d.items.url(itemId);
      if (!url) continue;
      this.d.logger.info('re-adding a lost distributed job', { itemId });
      await job?.remove().catch(() => undefined);
      // A result that failed for good keeps its id: removed, so the re-run's result is stored.
      await result?.remove().catch(() => undefined);
      this.outstanding.set(itemId, Date.now());
      await this.addJobs(analyze, [{ id: itemId, url }]);
    }
  }

  /** After a stop: tell workers, take back waiting jobs, give started ones time to report. */
  private async drain(redis: Redis, analyze: Queue<AnalyzeJob>): Promise<void> {
    const told = await within(
      redis.set(keys.control(this.s.queueKey), this.stopAs).then(() => true),
      STOP_CALL_MS,
      false,
    );
    if (!told) {
      // Redis is away: no result can come through it, so there is nothing to wait for. Results
      // workers post meanwhile wait in Redis for the resume.
      for (const itemId of [...this.outstanding.keys()]) this.release(itemId);
      return;
    }
    for (const itemId of [...this.outstanding.keys()]) {
      const jobId = analyzeJobId(this.s.queueKey, itemId);
      const removed = await within(analyze.remove(jobId), STOP_CALL_MS, -1);
      if (removed === -1) break; // Redis is away: leave the rest to the drain time
      if (removed === 1 || !(await within(analyze.getJob(jobId), STOP_CALL_MS, undefined))) this.release(itemId);
    }
    const until = Date.now() + this.t.drainMs;
    while (this.outstanding.size > 0 && Date.now() < until) await sleep(100);
    for (const itemId of [...this.outstanding.keys()]) this.release(itemId);
  }

  private release(itemId: number): void {
    if (!this.outstanding.delete(itemId)) return;
    this.d.items.requeue(itemId);
    this.s.onTransition('requeued', { itemId });
  }

  private nap(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, 250);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

/** Thrown when a distributed batch is started without a Redis URL it can use. */
export function redisMissing(batchId: number): AppError {
  return new AppError('invalid-input', `Batch ${batchId} runs on distributed workers: give its Redis URL (--redis, or Settings).`);
}
