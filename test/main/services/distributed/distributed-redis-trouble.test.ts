import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../../helpers/http-server';
import { fixture } from '../../../helpers/paths';
import { redisAvailable, startRedis, type TestRedis } from '../../../helpers/redis';
import { until } from '../../../helpers/until';
import { doneCount, expectEachOnce, itemsOf, slowUrls, startPicscan, startWorkerChild, tempDir, writeList, type Child } from './support';

// A Redis that is not right for a batch: full (maxmemory with noeviction, the default policy,
// refuses every write), or gone mid-run. The coordinator must say so in one line, keep the list
// intact, and go on once Redis is back.

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

/** How long a pause may take with Redis gone: its stop calls time out (1 s each), the drain (2 s here), the closes. */
const STOP_MS = 60_000;
/** Once the summary is printed the process has nothing left to do. */
const EXIT_AFTER_SUMMARY_MS = 20_000;

/** Progress lines printed after `mark` (an offset into the output). */
const linesAfter = (c: Child, mark: number): string[] =>
  c
    .output()
    .slice(mark)
    .split('\n')
    .filter((l) => l.startsWith('batch '));

describe.skipIf(!redisAvailable)('distributed batch: a Redis that refuses writes or goes away', { timeout: 300_000 }, () => {
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

  it('Ctrl-C while Redis is gone: the batch pauses and the process exits, not waiting for Redis forever', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const dir = tempDir('picscan-dist-redis-gone-stop-');
    const db = join(dir, 'picscan.db');
    const urls = slowUrls(images, 'gonestop', 12, 400);
    const w = track(startWorkerChild(redis.url, 'abandoned'));
    await w.waitFor(/ready/);
    const coordinator = track(
      startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', redis.url, '--progress-every', '0.5'], {
        PICSCAN_DIST_DRAIN_MS: '2000',
      }),
    );
    await until('two results stored', () => doneCount(db) >= 2, 180_000);
    await w.kill('SIGKILL');
    await redis.stop();
    coordinator.proc.kill('SIGINT');
    await coordinator.waitFor(/Batch 1 paused; continue with: picscan resume 1/, STOP_MS);
    const code = await Promise.race([coordinator.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), EXIT_AFTER_SUMMARY_MS))]);
    expect(code, coordinator.output()).toBe(130);
    const left = itemsOf(db);
    expect(left.filter((i) => i.status === 'done').every((i) => i.results === 1)).toBe(true);
    expect(left.filter((i) => i.status !== 'done').every((i) => i.status === 'queued')).toBe(true);
  });
  it('Redis gone mid-run, then back: the progress line says Redis is unreachable (not only "workers gone"), then the batch completes', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const dir = tempDir('picscan-dist-redis-gone-');
    const db = join(dir, 'picscan.db');
    const urls = slowUrls(images, 'gone', 12, 400);
    const w = track(startWorkerChild(redis.url, 'patient'));
    await w.waitFor(/ready/);
    const coordinator = track(
      startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', redis.url, '--progress-every', '0.5'], {
        PICSCAN_DIST_RECONCILE_MS: '1000',
      }),
    );
    await until('two results stored', () => doneCount(db) >= 2, 180_000);
    await redis.stop();
    await coordinator.waitFor(
      /Redis at redis:\/\/127\.0\.0\.1:\d+\/? unreachable for \d+ s \([^)]*ECONNREFUSED[^)]*\); waiting for it/,
      60_000,
    );
    const mark = coordinator.output().length;
    await redis.restart();
    expect(await coordinator.exited, coordinator.output()).toBe(0);
    expectEachOnce(itemsOf(db), urls);
    // Once Redis is back the lines stop saying it is away.
    expect(linesAfter(coordinator, mark).at(-1) ?? '').not.toMatch(/unreachable/);
    await w.kill('SIGTERM');
  });

  it('Redis full mid-run, then freed: the progress line says Redis refuses writes, then the batch completes', async () => {
    const redis = await startRedis();
    redises.push(redis);
    const dir = tempDir('picscan-dist-redis-full-');
    const db = join(dir, 'picscan.db');
    const urls = slowUrls(images, 'full', 12, 400);
    const w = track(startWorkerChild(redis.url, 'thrifty'));
    await w.waitFor(/ready/);
    const coordinator = track(
      startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', redis.url, '--progress-every', '0.5'], {
        PICSCAN_DIST_RECONCILE_MS: '1000',
      }),
    );
    await until('two results stored', () => doneCount(db) >= 2, 180_000);
    expect(redis.cli('CONFIG', 'SET', 'maxmemory', '1').trim()).toBe('OK');
    await coordinator.waitFor(/Redis at redis:\/\/127\.0\.0\.1:\d+\/? refuses writes \(OOM[^)]*\) for \d+ s: .*maxmemory/, 60_000);
    const mark = coordinator.output().length;
    expect(redis.cli('CONFIG', 'SET', 'maxmemory', '0').trim()).toBe('OK');
    expect(await coordinator.exited, coordinator.output()).toBe(0);
    expectEachOnce(itemsOf(db), urls);
    expect(linesAfter(coordinator, mark).at(-1) ?? '').not.toMatch(/refuses writes/);
    await w.kill('SIGTERM');
  });
});
