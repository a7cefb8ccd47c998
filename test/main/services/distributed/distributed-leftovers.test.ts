import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend } from '../../../../src-main/app';
import { loadConfig } from '../../../../src-main/config';
import { unavailableProcessor } from '../../../../src-main/services/batches-processor';
import { modelSetOf } from '../../../../src-main/services/distributed';
import { startFixtureServer, type FixtureServer } from '../../../helpers/http-server';
import { redisAvailable, startRedis, type TestRedis } from '../../../helpers/redis';
import { slowUrls, startWorkerChild, tempDir, until, type Child } from './support';

// A distributed batch keeps state in Redis while it runs or is paused: its announcement, control
// key, the hashes of the images its workers have seen, its results queue. A batch cancelled or
// deleted while paused, or while Redis was away, used to leave all of it there for good.

let redis: TestRedis;
let images: FixtureServer;
let worker: Child | undefined;

beforeAll(async () => {
  redis = await startRedis();
  images = await startFixtureServer();
});

afterAll(async () => {
  await worker?.kill();
  await images?.close();
  redis?.thaw();
  await redis?.stop();
});

/** Every Redis key that names the batch `queueKey` (BullMQ's queue keys and picscan's own). */
const keysOf = (queueKey: string): string[] => redis.cli('--scan', '--pattern', `*${queueKey}*`).split('\n').filter(Boolean).sort();
const announced = (queueKey: string): boolean => redis.cli('HEXISTS', 'picscan:batches', queueKey).trim() === '1';
/** Jobs of the batch still queued for the workers. */
const queuedJobs = (queueKey: string): number => keysOf(queueKey).filter((k) => /^picscan:analyze-[0-9a-f]+:/.test(k)).length;

function openService(dir: string) {
  const config = loadConfig({ dataDir: dir }, {});
  const backend = createBackend(config, {
    batches: {
      processor: unavailableProcessor,
      distributed: { modelSet: modelSetOf(config.modelsDir), redisUrl: redis.url, tuning: { reconcileMs: 1000, drainMs: 3_000 } },
    },
  });
  return { service: backend.batches(), close: () => backend.close() };
}

const operation = { kind: 'analyze' as const, features: ['Tags' as const], details: [] };

describe.skipIf(!redisAvailable)('distributed batch: what an ended batch leaves in Redis', { timeout: 300_000 }, () => {
  it('a paused batch keeps its state; cancelled or deleted later, or cancelled while Redis hung, it leaves nothing', async () => {
    const open = openService(tempDir('picscan-dist-leftovers-'));
    worker = startWorkerChild(redis.url, 'tidy');
    await worker.waitFor(/ready/);
    try {
      // Runs a batch until two items are done, then pauses it: the state a resume needs stays.
      const pausedBatch = async (queueKey: string): Promise<number> => {
        const backend = { kind: 'distributed' as const, redisUrl: redis.url, queueKey };
        const { batch } = await open.service.create(Readable.from([slowUrls(images, queueKey, 40, 400).join('\n')]), {
          name: queueKey,
          operation,
          backend,
        });
        const running = open.service.start(batch.id);
        await until(() => open.service.progress(batch.id).counts.done >= 2, 180_000, `${queueKey}: two done`);
        expect((await open.service.pause(batch.id)).status).toBe('paused');
        await running;
        expect(announced(queueKey)).toBe(true);
        expect(redis.cli('GET', `picscan:batch:${queueKey}:control`).trim()).toBe('paused');
        expect(keysOf(queueKey)).toContain(`picscan:batch:${queueKey}:seen`);
        expect(keysOf(queueKey).some((k) => k.startsWith(`picscan:results-${queueKey}:`))).toBe(true);
        return batch.id;
      };
      // What a cancelled batch may keep: its control key ("cancelled", expiring), for workers.
      const expectGone = (queueKey: string): void => {
        expect(keysOf(queueKey)).toEqual([`picscan:batch:${queueKey}:control`]);
        expect(redis.cli('GET', `picscan:batch:${queueKey}:control`).trim()).toBe('cancelled');
        expect(Number(redis.cli('TTL', `picscan:batch:${queueKey}:control`))).toBeGreaterThan(0);
        expect(announced(queueKey)).toBe(false);
      };

      const cancelledLater = await pausedBatch('leftcancel');
      expect((await open.service.cancel(cancelledLater)).status).toBe('cancelled');
      expectGone('leftcancel');

      const deletedLater = await pausedBatch('leftdelete');
      await open.service.delete(deletedLater);
      expectGone('leftdelete');

      // Redis hangs while the paused batch is cancelled: the cancel still ends, at once.
      const whileAway = await pausedBatch('lefthung');
      redis.freeze();
      const t0 = Date.now();
      let cancelled;
      try {
        cancelled = await open.service.cancel(whileAway);
      } finally {
        redis.thaw();
      }
      expect(cancelled.status).toBe('cancelled');
      expect(Date.now() - t0).toBeLessThan(10_000); // the clean-up waits CLEANUP_TIMEOUT_MS (5 s)
      expect(announced('lefthung')).toBe(true); // nothing could be removed meanwhile

      // Redis hangs while a running batch is cancelled: the run ends; the batch stays announced
      // as running with jobs queued, and the worker goes on with them once Redis is back.
      const { batch: hungRun } = await open.service.create(Readable.from([slowUrls(images, 'leftrun', 40, 400).join('\n')]), {
        name: 'leftrun',
        operation,
        backend: { kind: 'distributed', redisUrl: redis.url, queueKey: 'leftrun' },
      });
      const run = open.service.start(hungRun.id);
      await until(() => open.service.progress(hungRun.id).counts.done >= 2, 180_000, 'leftrun: two done');
      redis.freeze();
      const t1 = Date.now();
      try {
        cancelled = await open.service.cancel(hungRun.id);
      } finally {
        redis.thaw();
      }
      expect((await run).status).toBe('cancelled');
      expect(cancelled.status).toBe('cancelled');
      // The run's stop waits at most 1 + 1 + 10 + 3 + 5 s for a Redis that does not answer (10 s
      // measured: the consumer closes at once when Redis is unreachable).
      expect(Date.now() - t1).toBeLessThan(30_000);
      expect(announced('leftrun')).toBe(true);
      expect(queuedJobs('leftrun')).toBeGreaterThan(0);
      // The next distributed run on this Redis removes it; its own batch runs as usual.
      const next = await open.service.create(Readable.from([slowUrls(images, 'leftnext', 4, 0).join('\n')]), {
        name: 'next',
        operation,
        backend: { kind: 'distributed', redisUrl: redis.url, queueKey: 'leftnext' },
      });
      const finished = open.service.start(next.batch.id);
      await until(() => !announced('lefthung') && !announced('leftrun'), 30_000, 'the next run removes what the cancelled batches left');
      expect((await finished).status).toBe('done');
      // A job the worker had in hand at the clean-up ends without writing anything back.
      await new Promise((r) => setTimeout(r, 1500));
      expectGone('lefthung');
      expectGone('leftrun');
      expect(queuedJobs('leftrun')).toBe(0);
      // A finished batch leaves nothing at all.
      expect(keysOf('leftnext')).toEqual([]);
      // No worker fetches for the ended batches after they ended.
      const hits = images.requests.length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(images.requests.length).toBe(hits);
    } finally {
      await open.close();
    }
  });
});
