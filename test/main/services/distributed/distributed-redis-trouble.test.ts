import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../../helpers/http-server';
import { fixture } from '../../../helpers/paths';
import { redisAvailable, startRedis, type TestRedis } from '../../../helpers/redis';
import { itemsOf, startPicscan, tempDir, writeList, type Child } from './support';

// A Redis that is there but not right for a batch: full (maxmemory with noeviction, the default
// policy, refuses every write). The coordinator must say so in one line and keep the list intact.

let images: FixtureServer;
const redises: TestRedis[] = [];
const children: Child[] = [];
const track = (c: Child): Child => (children.push(c), c);

beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
});

afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await images?.close();
  await Promise.all(redises.map((r) => r.stop()));
});

describe.skipIf(!redisAvailable)('distributed batch: a Redis that refuses writes', { timeout: 120_000 }, () => {
  it('full (maxmemory reached): one line naming the refusal and the fix, exit 1, the batch kept for resume', async () => {
    const redis = await startRedis();
    redises.push(redis);
    // Any memory in use is over one byte: every write is refused with OOM from now on.
    expect(redis.cli('CONFIG', 'SET', 'maxmemory', '1').trim()).toBe('OK');
    const dir = tempDir('picscan-dist-oom-');
    const db = join(dir, 'picscan.db');
    const run = track(startPicscan(['batch', writeList(dir, [images.url('/cat.jpg')]), '--db', db, '--redis', redis.url]));
    expect(await run.exited, run.output()).toBe(1);
    expect(run.output()).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/? refuses writes \(OOM[^)]*\): .*maxmemory.*resume/);
    expect(run.output()).not.toMatch(/unexpected error/);
    expect(run.output()).not.toMatch(/\n\s+at /); // no stack trace
    expect(itemsOf(db).map((i) => i.status)).toEqual(['queued']);
  });
});
