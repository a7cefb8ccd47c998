import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../../../src-main/services/distributed/keys';
import type { WorkerBeat } from '../../../../src-main/services/distributed/protocol';
import { WORKER_GONE_MS, WorkerRoster } from '../../../../src-main/services/distributed/worker-roster';
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

const beat = (name: string, at: number, unavailableHosts?: WorkerBeat['unavailableHosts']): WorkerBeat => ({
  name,
  version: '1',
  modelSet: 'models-a',
  pid: 1,
  host: 'h',
  concurrency: 2,
  processed: 0,
  imagesPerSecond: 0,
  at,
  ...(unavailableHosts ? { unavailableHosts } : {}),
});

describe.skipIf(!redisAvailable)('distributed batch: unavailable image hosts', { timeout: 240_000 }, () => {
  it('adds up the workers’ waiting URLs per host for this batch only, with the longest outage, while their beats are current', async () => {
    const client = new Redis(redis.url);
    try {
      let now = 1_000_000;
      const roster = new WorkerRoster('models-a', () => now);
      const img = { host: 'img.example:80', reason: 'no answer in time' };
      await client.hset(keys.workers, {
        w1: JSON.stringify(beat('w1', 1, { b1: [{ ...img, unavailableSeconds: 40, waiting: 3 }] })),
        w2: JSON.stringify(
          beat('w2', 1, {
            b1: [
              { ...img, reason: 'HTTP 503', unavailableSeconds: 12, waiting: 2 },
              { host: 'cdn.example:443', reason: 'HTTP 502', unavailableSeconds: 5, waiting: 1 },
            ],
            b2: [{ ...img, unavailableSeconds: 99, waiting: 7 }],
          }),
        ),
        w3: JSON.stringify(beat('w3', 1)),
      });
      await roster.refresh(client);
      expect(roster.unavailableHosts('b1')).toEqual([
        { host: 'cdn.example:443', reason: 'HTTP 502', unavailableSeconds: 5, waiting: 1 },
        { host: 'img.example:80', reason: 'no answer in time', unavailableSeconds: 40, waiting: 5 },
      ]);
      expect(roster.unavailableHosts('b3')).toEqual([]);
      // w1 beats again without waits; w2 stops beating and is gone after WORKER_GONE_MS.
      now += WORKER_GONE_MS / 2;
      await client.hset(keys.workers, 'w1', JSON.stringify(beat('w1', 2)));
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
