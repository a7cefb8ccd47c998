import type { ConnectionOptions } from 'bullmq';
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
