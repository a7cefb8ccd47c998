import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config';
import { AppError } from '../../core';
import { modelSetOf, parseRedisUrl, WORKER_GONE_MS } from '../../services/distributed';
import type { BatchServiceDeps } from '../../services/batches.service';
import type { Backend, BatchProgress, WorkerStatus } from '../../shared/batch';
import { terminalText } from '../flags';

/** `--redis` of `batch` and `resume` (else `PICSCAN_REDIS_URL`): the Redis URL, password included. */
export interface RedisFlag {
  redis?: string;
}

/** The Redis URL given now: `--redis`, else `PICSCAN_REDIS_URL`. */
export const givenRedisUrl = (o: RedisFlag, env: NodeJS.ProcessEnv = process.env): string | undefined => o.redis ?? env.PICSCAN_REDIS_URL;

/** A new distributed backend for `batch --redis`: the URL is stored without its password. */
export function distributedBackend(redisUrl: string): Backend {
  return { kind: 'distributed', redisUrl: parseRedisUrl(redisUrl).stored, queueKey: randomBytes(6).toString('hex') };
}

/** What the batch service needs to run distributed batches from this command. */
export function distributedDeps(o: RedisFlag, config: AppConfig, env: NodeJS.ProcessEnv = process.env): BatchServiceDeps['distributed'] {
  const modelSet = modelSetOf(config.modelsDir);
  // Test and tuning knobs: how often lost jobs are looked for and how long a pause waits (ms),
  // how many items may be in Redis at once.
  const num = (name: string): number | undefined => {
    const given = env[name];
    if (given === undefined) return undefined;
    const n = Number(given);
    // A knob that is not a number would turn the bound it sets off (a NaN backlog is never full).
    if (given.trim() === '' || !Number.isFinite(n) || n <= 0)
      throw new AppError('invalid-input', `${name} must be a positive number, not "${given}".`);
    return n;
  };
  const tuning = {
    reconcileMs: num('PICSCAN_DIST_RECONCILE_MS'),
    drainMs: num('PICSCAN_DIST_DRAIN_MS'),
    maxBacklog: num('PICSCAN_DIST_BACKLOG'),
  };
  return {
    modelSet,
    redisUrl: givenRedisUrl(o, env),
    tuning: Object.fromEntries(Object.entries(tuning).filter(([, v]) => v !== undefined)),
  };
}

/** ", 2 workers (box-a 3.1/s, box-b 2.9/s)" for the progress line; empty for local batches. */
export function workersText(workers: WorkerStatus[] | undefined): string {
  if (!workers) return '';
  const isLive = (w: WorkerStatus): boolean => w.lastSeenMs >= 0 && w.lastSeenMs <= WORKER_GONE_MS;
  const live = workers.filter(isLive);
  // A worker that stopped beating (killed, cut off) is named as gone, not with its last rate.
  const each = workers
    .map((w) => (isLive(w) ? `${terminalText(w.name)} ${w.imagesPerSecond}/s` : `${terminalText(w.name)} gone`))
    .join(', ');
  return `, ${live.length} worker${live.length === 1 ? '' : 's'}${each ? ` (${each})` : ''}`;
}

/**
 * "; box-c has other models and takes none of these items (…)": a worker of another picscan
 * version or model set never sees this batch's queue, and would otherwise just be missing.
 */
export function mismatchedWorkersText(names: string[] | undefined): string {
  if (!names?.length) return '';
  const who = names.map(terminalText).join(', ');
  return `; ${who} ${names.length === 1 ? 'has' : 'have'} other models and take${names.length === 1 ? 's' : ''} none of these items (install the same picscan version and models there)`;
}

/** The workers, those with other models, then what is wrong with Redis if anything ("…; Redis at … unreachable for 12 s (…)"). */
export function distributedText(p: BatchProgress): string {
  return `${workersText(p.workers)}${mismatchedWorkersText(p.mismatchedWorkers)}${p.redisTrouble ? `; ${terminalText(p.redisTrouble)}` : ''}`;
}
