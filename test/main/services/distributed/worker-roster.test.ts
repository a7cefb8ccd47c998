import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../../../src-main/services/distributed/keys';
import type { WorkerBeat } from '../../../../src-main/services/distributed/protocol';
import { WORKER_GONE_MS, WorkerRoster } from '../../../../src-main/services/distributed/worker-roster';
import { redisAvailable, startRedis, type TestRedis } from '../../../helpers/redis';

// The coordinator's view of the workers, read from the heartbeat hash of a real Redis: those with
// this batch's model set serve it; those with another are named, since they never see its queue;
// the image hosts their fetches wait for are added up per batch.

let redis: TestRedis;

beforeAll(async () => {
  if (redisAvailable) redis = await startRedis();
});

afterAll(async () => {
  await redis?.stop();
});

/** A worker's heartbeat as it writes it: `at` its clock (ms), only compared for change. */
const beatOf = (name: string, modelSet: string, at: number, unavailableHosts?: WorkerBeat['unavailableHosts']): WorkerBeat => ({
  name,
  version: '1',
  modelSet,
  pid: 1,
  host: 'h',
  concurrency: 2,
  processed: 0,
  imagesPerSecond: 0,
  at,
  ...(unavailableHosts ? { unavailableHosts } : {}),
});
const beat = (name: string, modelSet: string, at: number): string => JSON.stringify(beatOf(name, modelSet, at));

describe.skipIf(!redisAvailable)('worker roster', () => {
  it('counts the workers of its model set and names the connected ones with another, until their beats stop', async () => {
    const client = new Redis(redis.url);
    try {
      let now = 1_000_000;
      const roster = new WorkerRoster('models-a', () => now);
      await client.hset(keys.workers, {
        a1: beat('a1', 'models-a', 1),
        old2: beat('old2', 'models-b', 1),
        old1: beat('old1', 'models-c', 1),
        junk: '{not json',
      });
      await roster.refresh(client);
      expect(roster.list().map((w) => w.name)).toEqual(['a1']);
      expect(roster.connected()).toBe(1);
      expect(roster.mismatched()).toEqual(['old1', 'old2']);
      // old1 beats on; old2 stops (shut down) and is no longer named once its beat is stale.
      now += WORKER_GONE_MS / 2;
      await client.hset(keys.workers, { old1: beat('old1', 'models-c', 2), a1: beat('a1', 'models-a', 2) });
      await roster.refresh(client);
      now += WORKER_GONE_MS / 2 + 1;
      await roster.refresh(client);
      expect(roster.mismatched()).toEqual(['old1']);
      expect(roster.connected()).toBe(1);
    } finally {
      await client.del(keys.workers);
      client.disconnect();
    }
  });

  it('adds up the workers’ waiting URLs per host for this batch only, with the longest outage, while their beats are current', async () => {
    const client = new Redis(redis.url);
    try {
      let now = 1_000_000;
      const roster = new WorkerRoster('models-a', () => now);
      const img = { host: 'img.example:80', reason: 'no answer in time' };
      await client.hset(keys.workers, {
        w1: JSON.stringify(beatOf('w1', 'models-a', 1, { b1: [{ ...img, unavailableSeconds: 40, waiting: 3 }] })),
        w2: JSON.stringify(
          beatOf('w2', 'models-a', 1, {
            b1: [
              { ...img, reason: 'HTTP 503', unavailableSeconds: 12, waiting: 2 },
              { host: 'cdn.example:443', reason: 'HTTP 502', unavailableSeconds: 5, waiting: 1 },
            ],
            b2: [{ ...img, unavailableSeconds: 99, waiting: 7 }],
          }),
        ),
        w3: beat('w3', 'models-a', 1),
      });
      await roster.refresh(client);
      expect(roster.unavailableHosts('b1')).toEqual([
        { host: 'cdn.example:443', reason: 'HTTP 502', unavailableSeconds: 5, waiting: 1 },
        { host: 'img.example:80', reason: 'no answer in time', unavailableSeconds: 40, waiting: 5 },
      ]);
      expect(roster.unavailableHosts('b3')).toEqual([]);
      // w1 beats again without waits; w2 stops beating and is gone after WORKER_GONE_MS.
      now += WORKER_GONE_MS / 2;
      await client.hset(keys.workers, 'w1', beat('w1', 'models-a', 2));
      await roster.refresh(client);
      expect(roster.unavailableHosts('b1').map((h) => [h.host, h.waiting])).toEqual([
        ['cdn.example:443', 1],
        ['img.example:80', 2],
      ]);
      now += WORKER_GONE_MS;
      expect(roster.unavailableHosts('b1')).toEqual([]);
    } finally {
      await client.del(keys.workers);
      client.disconnect();
    }
  });
});
