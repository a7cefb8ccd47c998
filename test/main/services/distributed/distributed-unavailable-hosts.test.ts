import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../../helpers/http-server';
import { fixture } from '../../../helpers/paths';
import { redisAvailable, startRedis, type TestRedis } from '../../../helpers/redis';
import { itemsOf, startPicscan, startWorkerChild, tempDir, writeList, type Child } from './support';

// A distributed batch's downloads run on the workers, so their host breakers know which image
// hosts are unavailable: the workers report it in their heartbeats and the coordinator's progress
// names the hosts, as a local batch's does. Real Redis, real worker and coordinator processes.

let redis: TestRedis;
let good: FixtureServer;
let down: FixtureServer;
const children: Child[] = [];
const track = (c: Child): Child => (children.push(c), c);

beforeAll(async () => {
  if (!redisAvailable) return;
  redis = await startRedis();
  [good, down] = await Promise.all([startFixtureServer(), startFixtureServer()]);
});

afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await Promise.all([good?.close(), down?.close()]);
  await redis?.stop();
});

describe.skipIf(!redisAvailable)('distributed batch: unavailable image hosts', { timeout: 240_000 }, () => {
  it('the coordinator’s progress names a host that answers 503 while the workers’ URLs wait; when it is back the waiting items are done', async () => {
    const dir = tempDir('picscan-dist-unavailable-');
    const db = join(dir, 'picscan.db');
    const cat = { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } };
    const downPaths = Array.from({ length: 6 }, (_, i) => `/maintenance/${i}.jpg`);
    for (const path of downPaths)
      down.route(path, { status: 503, body: 'down for maintenance', headers: { 'content-type': 'text/plain' } });
    const downUrls = downPaths.map((path) => down.url(path));
    good.route('/cat.jpg', cat);
    const urls = [good.url('/cat.jpg'), ...downUrls];
    const worker = track(startWorkerChild(redis.url, 'w-breaker'));
    await worker.waitFor(/ready/);
    const coordinator = track(startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', redis.url, '--progress-every', '0.5']));
    const hostPort = new URL(down.url('/')).host;
    const named = new RegExp(`${hostPort.replace(/\./g, '\\.')} unavailable for \\d+ s \\(HTTP 503\\); \\d+ images? waits? for it`);
    await coordinator.waitFor(named, 120_000);
    expect(worker.output()).toMatch(new RegExp(`Image host ${hostPort.replace(/\./g, '\\.')} unavailable \\(HTTP 503`));
    for (const path of downPaths) down.route(path, cat); // the host is back
    // The next request that asks comes after the breaker's 30 s cool-down; then every waiting URL goes on.
    const code = await coordinator.exited;
    const items = itemsOf(db);
    // Only a URL whose three attempts all came before the third failure opened the breaker can
    // have failed (at most one: three failed requests open it), with the host's answer.
    const failed = items.filter((i) => i.status === 'failed');
    expect(failed.length, coordinator.output()).toBeLessThanOrEqual(1);
    for (const f of failed) expect(f.error_code).toBe('image-fetch-failed');
    expect(items.filter((i) => i.status === 'done').length).toBe(urls.length - failed.length);
    expect(code, coordinator.output()).toBe(failed.length ? 1 : 0);
  });
  it('the other hosts’ images go on while a worker’s jobs for an unavailable host wait in Redis, not in its places', async () => {
    const dir = tempDir('picscan-dist-held-');
    const db = join(dir, 'picscan.db');
    const cat = { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } };
    const downPaths = Array.from({ length: 8 }, (_, i) => `/held/${i}.jpg`);
    for (const path of downPaths)
      down.route(path, { status: 503, body: 'down for maintenance', headers: { 'content-type': 'text/plain' } });
    const goodPaths = Array.from({ length: 4 }, (_, i) => `/after/${i}.jpg`);
    for (const path of goodPaths) good.route(path, cat);
    // The unavailable host's URLs come first and outnumber the worker's two places four times.
    const urls = [...downPaths.map((path) => down.url(path)), ...goodPaths.map((path) => good.url(path))];
    const worker = track(startWorkerChild(redis.url, 'w-held'));
    await worker.waitFor(/ready/);
    // A backlog of 4 items in Redis: the coordinator adds the other host's URLs only once the
    // workers report the waiting ones.
    const coordinator = track(
      startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', redis.url, '--progress-every', '0.5'], {
        PICSCAN_DIST_BACKLOG: '4',
      }),
    );
    const hostPort = new URL(down.url('/')).host.replace(/\./g, '\\.');
    // Before, both places held waiting jobs (and the backlog was full of them), so the other
    // host's images waited for the outage's end (5 minutes).
    await coordinator.waitFor(new RegExp(`done 4, failed [01]\\).*${hostPort} unavailable for \\d+ s \\(HTTP 503\\)`), 25_000);
    for (const path of downPaths) down.route(path, cat); // the host is back
    const code = await coordinator.exited;
    const items = itemsOf(db);
    // As above: at most one URL spent its three attempts before the breaker opened.
    const failed = items.filter((i) => i.status === 'failed');
    expect(failed.length, coordinator.output()).toBeLessThanOrEqual(1);
    expect(items.filter((i) => i.status === 'done').length).toBe(urls.length - failed.length);
    expect(code, coordinator.output()).toBe(failed.length ? 1 : 0);
  });
});
