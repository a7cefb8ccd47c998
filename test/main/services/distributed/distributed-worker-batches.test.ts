import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../helpers/paths';
import { redisAvailable } from '../../../helpers/redis';
import { distributedEnv, itemsOf, startPicscan, startWorkerChild, tempDir, writeList } from './support';

// A long-lived `picscan worker` over many batches: what it keeps per batch (a results queue with
// its own Redis connection, a number) goes once the batch has ended, so its connections do not
// grow with the batches it has worked for. Real redis-server, real worker and coordinators.

const dist = distributedEnv();
const { track } = dist;

beforeAll(async () => {
  for (let i = 0; i < 4; i++)
    dist.images.route(`/b${i}/text.png`, { file: fixture('text_bw.png'), headers: { 'content-type': 'image/png' } });
});

/** Redis connections open now, not counting the `redis-cli` that asks. */
const connections = (): number =>
  dist.redis
    .cli('CLIENT', 'LIST')
    .trim()
    .split('\n')
    .filter((l) => l.trim()).length - 1;

/** Waits until the count stops changing for 3 s (the worker beats every 2 s), then returns it. */
async function settledConnections(): Promise<number> {
  let last = connections();
  for (let stable = 0; stable < 3_000; stable += 250) {
    await new Promise((r) => setTimeout(r, 250));
    const now = connections();
    if (now !== last) [last, stable] = [now, -250];
  }
  return last;
}

describe.skipIf(!redisAvailable)('a worker over many batches', { timeout: 300_000 }, () => {
  it('keeps no connection or number for the batches that have ended', async () => {
    const worker = track(startWorkerChild(dist.redis.url, 'long-lived', {}, 10_000));
    await worker.waitFor(/ready/);
    const before = await settledConnections();
    for (let i = 0; i < 4; i++) {
      const dir = tempDir('picscan-dist-many-');
      const db = join(dir, 'picscan.db');
      const run = track(
        startPicscan(['batch', writeList(dir, [dist.images.url(`/b${i}/text.png`)]), '--db', db, '--redis', dist.redis.url]),
      );
      expect(await run.exited, run.output()).toBe(0);
      expect(itemsOf(db).map((r) => [r.status, r.worker])).toEqual([['done', 'long-lived']]);
    }
    // Every coordinator has exited: what is left is the worker's own connections, as before the
    // batches (a results queue kept per batch would add one each).
    expect(await settledConnections()).toBe(before);
  });
});
