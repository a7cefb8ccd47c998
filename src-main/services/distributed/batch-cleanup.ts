/**
 * Removing an ended distributed batch's state from Redis: its announcement, control key, seen
 * hash, results queue and (when cancelled) the jobs still queued for it. A run that ends with
 * Redis reachable does it itself; a batch cancelled or deleted while it was not running, or while
 * Redis was away, is noted in the database (`RedisLeftoversRepo`, migration 11) and cleaned here:
 * at once when Redis answers, else by the next distributed run on the same Redis.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../../core';
import type { RedisLeftoversRepo } from '../../store';
import { oneShotClient } from './connection';
import { within } from './deadline';
import { analyzeQueueName, keys, PREFIX, resultsQueueName } from './keys';
import type { AnalyzeJob, ResultJob } from './protocol';
import { parseRedisUrl, redisForRun, type RedisAddress } from './redis-url';

/** How a batch ended: a finished one has no jobs left; a cancelled one may. */
export type BatchEnd = 'finished' | 'cancelled';

/**
 * How long a cancelled batch's control key stays, s: a worker that still holds one of its jobs
 * returns it instead of running it. Afterwards the key would only take room.
 */
export const CANCELLED_CONTROL_TTL_S = 3600;

/** Job states of the analyze queue whose jobs no worker has taken yet. */
const NOT_TAKEN = ['waiting', 'delayed', 'prioritized'] as const;
/** Jobs read per page while looking for a cancelled batch's. */
const JOB_PAGE = 500;

/** A queue's connection errors also fail the call that met them, which says what happened. */
const ignore = (): void => undefined;

/** Upper bound for a clean-up attempt from the batch service (Redis may hang), ms. */
export const CLEANUP_TIMEOUT_MS = 5_000;

/** The Redis clients a clean-up uses: plain commands and the queues' connection (shared). */
interface CleanupContext {
  redis: Redis;
  /** The analyze queue of this install's model set (jobs of other model sets never were ours). */
  modelSet: string;
}

/** Removes one ended batch's state from Redis. Throws when Redis refuses or fails a command. */
export async function forgetBatch(ctx: CleanupContext, queueKey: string, end: BatchEnd): Promise<void> {
  await forgetBatches(ctx, [queueKey], end);
}

/**
 * Removes ended batches' state from Redis, calling `forgotten` for each batch once its last key is
 * gone. The analyze queue is read once for all of them. Throws at the first command Redis refuses
 * or fails (the batches not reported then keep what is left).
 */
async function forgetBatches(
  ctx: CleanupContext,
  queueKeys: readonly string[],
  end: BatchEnd,
  forgotten: (queueKey: string) => void = () => undefined,
): Promise<void> {
  const { redis } = ctx;
  if (queueKeys.length === 0) return; // the common case of a sweep: no queue to read
  if (end === 'cancelled') {
    // First, so a worker taking one of their jobs meanwhile returns it instead of fetching the image.
    for (const queueKey of queueKeys) await redis.set(keys.control(queueKey), 'cancelled', 'EX', CANCELLED_CONTROL_TTL_S);
    await removeQueuedJobs(ctx, new Set(queueKeys));
  }
  for (const queueKey of queueKeys) {
    await redis.hdel(keys.batches, queueKey);
    await redis.del(keys.seen(queueKey));
    if (end === 'finished') await redis.del(keys.control(queueKey));
    // The results queue last: its event stream alone keeps up to 10 000 entries (about 0.7 MB).
    const results = new Queue<ResultJob>(resultsQueueName(queueKey), { connection: redis, prefix: PREFIX });
    results.on('error', ignore);
    try {
      await results.obliterate({ force: true });
    } finally {
      await results.close();
    }
    forgotten(queueKey);
  }
}

/** Removes the jobs of the batches `queueKeys` that no worker has taken yet from the analyze queue. */
async function removeQueuedJobs(ctx: CleanupContext, queueKeys: ReadonlySet<string>): Promise<void> {
  const analyze = new Queue<AnalyzeJob>(analyzeQueueName(ctx.modelSet), { connection: ctx.redis, prefix: PREFIX });
  analyze.on('error', ignore);
  try {
    const theirs: string[] = [];
    for (let start = 0; ; start += JOB_PAGE) {
      const page = await analyze.getJobs([...NOT_TAKEN], start, start + JOB_PAGE - 1, true);
      for (const job of page) if (job?.id && queueKeys.has(job.data?.queueKey)) theirs.push(job.id);
      if (page.length < JOB_PAGE) break;
    }
    // A job a worker took meanwhile is locked and stays: that worker reads the control key.
    for (const id of theirs) await analyze.remove(id);
  } finally {
    await analyze.close();
  }
}

/**
 * Cleans the noted leftovers on this Redis (`address`, by its stored URL) with an open client,
 * clearing each note once its state is gone. Returns how many were cleaned; stops at the first
 * failure (Redis went away: the rest wait for the next attempt).
 */
export async function sweepLeftovers(ctx: CleanupContext, address: RedisAddress, notes: RedisLeftoversRepo): Promise<number> {
  let cleaned = 0;
  const noted = notes.on(address.stored).map((n) => n.queueKey);
  await forgetBatches(ctx, noted, 'cancelled', (queueKey) => {
    notes.clear(queueKey);
    cleaned++;
  });
  return cleaned;
}

/**
 * Notes an ended batch's Redis state as a leftover and tries to remove it now, within
 * `CLEANUP_TIMEOUT_MS`, on a client of its own that never reconnects. Never throws: when Redis
 * does not answer, the note stays for the next distributed run on that Redis.
 */
export async function cleanUpEndedBatch(
  address: RedisAddress,
  queueKey: string,
  modelSet: string,
  notes: RedisLeftoversRepo,
  logger: Logger,
): Promise<boolean> {
  notes.note({ queueKey, redisUrl: address.stored });
  const redis = oneShotClient(address, CLEANUP_TIMEOUT_MS);
  redis.on('error', ignore); // the outcome below says it
  const attempt = async (): Promise<boolean> => {
    await redis.connect();
    await redis.select(address.db);
    await forgetBatch({ redis, modelSet }, queueKey, 'cancelled');
    notes.clear(queueKey);
    return true;
  };
  try {
    const done = await within(attempt(), CLEANUP_TIMEOUT_MS, false);
    if (!done) {
      logger.warn(
        `Could not remove the batch's data from Redis at ${address.redacted} (queue ${queueKey}): Redis did not answer in time or refused; the next distributed run on it removes it.`,
      );
    }
    return done;
  } finally {
    redis.disconnect();
  }
}

/**
 * The address to clean a stored batch's Redis with: the configured URL when it names the same
 * server (it may carry the password the stored form leaves out), else the stored one.
 */
export function cleanupAddress(stored: string, given: string | undefined): RedisAddress {
  try {
    return redisForRun(stored, given);
  } catch {
    return parseRedisUrl(stored);
  }
}
