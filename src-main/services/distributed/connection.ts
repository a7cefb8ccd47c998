import type { ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { AppError } from '../../core';
import { within } from './deadline';
import type { RedisAddress } from './redis-url';

/** Longest wait between reconnection attempts after Redis goes away, ms. */
export const MAX_RECONNECT_DELAY_MS = 5_000;

/**
 * ioredis options for BullMQ: `maxRetriesPerRequest: null` (BullMQ's workers block on Redis and
 * must wait out an outage instead of failing commands), reconnection with exponential backoff
 * (100 ms doubling to 5 s, forever), TLS for `rediss://`.
 */
export function connectionOptions(address: RedisAddress): ConnectionOptions {
  return {
    url: address.url,
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: (times: number) => Math.min(MAX_RECONNECT_DELAY_MS, 100 * 2 ** Math.min(times, 10)),
    ...(address.tls ? { tls: {} } : {}),
  } as ConnectionOptions;
}

/**
 * A client for one short task: connects when told (`connect()`), once, within `timeoutMs`, and
 * never reconnects or queues commands for later, so it cannot outlive its caller's deadline.
 */
export function oneShotClient(address: RedisAddress, timeoutMs: number): Redis {
  return new Redis(address.url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    ...(address.tls ? { tls: {} } : {}),
  });
}

/** What a start-up check found when Redis did not answer: nothing fatal, it may come later. */
export interface RedisUnreachable {
  reachable: false;
  /** Why, for a log line: the last connection error, or the timeout. */
  reason: string;
}

/** Server replies that no reconnection cures: the credentials are wrong or missing. */
const AUTH_ERROR = /^(NOAUTH|WRONGPASS)\b|invalid (username-password pair|password)/i;
/** Reply to SELECT of a database the server does not have. */
const DB_RANGE_ERROR = /DB index is out of range/i;

/**
 * Checks once, within `timeoutMs`, that Redis answers at `address` with its credentials and its
 * database. A refused password or a database the server does not have is fatal (`remote-failed`,
 * the address shown without its password): retrying cannot cure it, and ioredis alone would log
 * the SELECT error and go on in database 0. An unreachable server is returned, not thrown:
 * callers decide whether to wait for it.
 */
export async function checkRedis(address: RedisAddress, timeoutMs: number): Promise<{ reachable: true } | RedisUnreachable> {
  // One attempt, no reconnection: this client must never outlive the check.
  const client = oneShotClient(address, timeoutMs);
  let lastError: Error | undefined;
  client.on('error', (err: Error) => (lastError = err));
  const fatal = (err: Error | undefined): AppError | undefined => {
    if (err && AUTH_ERROR.test(err.message)) {
      return new AppError(
        'remote-failed',
        `Redis at ${address.redacted} refused the credentials (${err.message}): check the user and password in the URL.`,
      );
    }
    return undefined;
  };
  const probe = async (): Promise<AppError | 'ok' | undefined> => {
    try {
      await client.connect();
      await client.ping();
    } catch (err) {
      return fatal(lastError) ?? fatal(err as Error);
    }
    if (fatal(lastError)) return fatal(lastError);
    try {
      // Explicitly: ioredis reports a failed SELECT at connect as an event and stays in database 0.
      await client.select(address.db);
    } catch (err) {
      if (!DB_RANGE_ERROR.test((err as Error).message)) return fatal(err as Error);
      const count = await client.config('GET', 'databases').then(
        (r) => Number((r as string[])[1]),
        () => NaN, // CONFIG may be refused by the server's ACL: then say less
      );
      const has = Number.isInteger(count) && count > 0 ? ` (it has ${count}: 0–${count - 1})` : '';
      return new AppError('remote-failed', `Redis database ${address.db} does not exist on ${new URL(address.stored).host}${has}.`);
    }
    return 'ok';
  };
  try {
    const outcome = await within(probe(), timeoutMs, undefined);
    if (outcome instanceof AppError) throw outcome;
    if (outcome === 'ok') return { reachable: true };
    return { reachable: false, reason: lastError?.message ?? `no answer within ${timeoutMs / 1000} s` };
  } finally {
    client.disconnect();
  }
}
