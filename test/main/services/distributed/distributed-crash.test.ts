import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src-main/config';
import { createBackend } from '../../../../src-main/app';
import { unavailableProcessor } from '../../../../src-main/services/batches-processor';
import { modelSetOf } from '../../../../src-main/services/distributed';
import { fixture } from '../../../helpers/paths';
import { redisAvailable } from '../../../helpers/redis';
import {
  distributedEnv,
  doneCount,
  expectEachOnce,
  itemsOf,
  slowUrls,
  startPicscan,
  startWorkerChild,
  tempDir,
  until,
  writeList,
} from './support';

// What a distributed batch survives: a worker SIGKILLed mid-job, the coordinator SIGKILLed and
// resumed, Redis restarted (persistence off: it forgets everything), pause and cancel. In every
// case each URL ends exactly once, with one stored result per done item.

const dist = distributedEnv();
const { track } = dist;

// Worker processes load the real models: minutes on a busy 2-core machine.
describe.skipIf(!redisAvailable)('distributed batch: crashes, restarts, pause and cancel', { timeout: 300_000 }, () => {
  it('a worker SIGKILLed mid-job: the stalled job goes to another worker', async () => {
    const dir = tempDir('picscan-dist-kill-worker-');
    const db = join(dir, 'picscan.db');
    const slow = dist.images.url('/stall/cat.jpg');
    dist.images.route('/stall/cat.jpg', { file: fixture('cat_chelsea.jpg'), delayMs: 3000, headers: { 'content-type': 'image/jpeg' } });
    const urls = [slow, ...slowUrls(dist.images, 'kw', 4, 50)];
    const a = track(startWorkerChild(dist.redis.url, 'doomed'));
    await a.waitFor(/ready/);
    const coordinator = track(startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', dist.redis.url]));
    await until(() => dist.images.hits('/stall/cat.jpg') === 1, 180_000, 'the doomed worker fetches the slow image');
    await a.kill('SIGKILL');
    const b = track(startWorkerChild(dist.redis.url, 'rescuer'));
    expect(await coordinator.exited, coordinator.output()).toBe(0);
    const items = itemsOf(db);
    expectEachOnce(items, urls);
    expect(items.find((i) => i.url === slow)?.worker).toBe('rescuer');
    expect(dist.images.hits('/stall/cat.jpg')).toBe(2);
    await b.kill('SIGTERM');
  });

  it('a worker asked to stop (SIGTERM) finishes the job in hand, then exits 0', async () => {
    const dir = tempDir('picscan-dist-sigterm-');
    const db = join(dir, 'picscan.db');
    dist.images.route('/term/coffee.jpg', { file: fixture('coffee_cup.jpg'), delayMs: 3000, headers: { 'content-type': 'image/jpeg' } });
    const w = track(startWorkerChild(dist.redis.url, 'polite'));
    await w.waitFor(/ready/);
    const coordinator = track(
      startPicscan(['batch', writeList(dir, [dist.images.url('/term/coffee.jpg')]), '--db', db, '--redis', dist.redis.url]),
    );
    await until(() => dist.images.hits('/term/coffee.jpg') === 1, 180_000, 'the worker fetches the slow image');
    w.proc.kill('SIGTERM');
    expect(await w.exited, w.output()).toBe(0);
    expect(w.output()).toMatch(/worker polite stopped after 1 image\b/);
    expect(await coordinator.exited, coordinator.output()).toBe(0);
    expect(itemsOf(db)).toMatchObject([{ status: 'done', worker: 'polite', results: 1 }]);
  });

  it('the coordinator SIGKILLed: resume collects the results that arrived meanwhile and re-adds what is missing', async () => {
    const dir = tempDir('picscan-dist-kill-coord-');
    const db = join(dir, 'picscan.db');
    const urls = slowUrls(dist.images, 'kc', 14, 400);
    const w = track(startWorkerChild(dist.redis.url, 'steady'));
    await w.waitFor(/ready/);
    const first = track(startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', dist.redis.url]));
    await until(() => doneCount(db) >= 2, 180_000, 'two results stored');
    await first.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 2000)); // the worker goes on; its results wait in Redis
    const resumed = track(startPicscan(['resume', '1', '--db', db, '--redis', dist.redis.url]));
    expect(await resumed.exited, resumed.output()).toBe(0);
    expectEachOnce(itemsOf(db), urls);
    await w.kill('SIGTERM');
  });

  it('Redis restarted mid-batch (everything it held is gone): the batch continues and completes', async () => {
    const dir = tempDir('picscan-dist-redis-restart-');
    const db = join(dir, 'picscan.db');
    const urls = slowUrls(dist.images, 'rr', 14, 400);
    const w = track(startWorkerChild(dist.redis.url, 'survivor'));
    await w.waitFor(/ready/);
    const coordinator = track(
      startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', dist.redis.url], { PICSCAN_DIST_RECONCILE_MS: '1000' }),
    );
    await until(() => doneCount(db) >= 2, 180_000, 'two results stored');
    await dist.redis.restart();
    expect(await coordinator.exited, coordinator.output()).toBe(0);
    expectEachOnce(itemsOf(db), urls);
    await w.kill('SIGTERM');
  });

  it('lost-job checks running back to back never re-add a job that just finished: each image fetched once', async () => {
    // With a 1 ms period the coordinator checks its in-flight items continuously, so workers
    // finish jobs in the middle of a check. A check that read the waiting results before looking
    // for the analyze jobs took such a job for lost and added it again.
    const dir = tempDir('picscan-dist-reconcile-');
    const db = join(dir, 'picscan.db');
    const urls = slowUrls(dist.images, 'rc', 14, 150);
    const w = track(startWorkerChild(dist.redis.url, 'busy'));
    await w.waitFor(/ready/);
    const coordinator = track(
      startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', dist.redis.url], { PICSCAN_DIST_RECONCILE_MS: '1' }),
    );
    expect(await coordinator.exited, coordinator.output()).toBe(0);
    expectEachOnce(itemsOf(db), urls);
    for (const u of urls) expect(dist.images.hits(new URL(u).pathname), u).toBe(1);
    await w.kill('SIGTERM');
  });

  it('pause stops the workers taking the batch; resume finishes it; cancel skips the rest', async () => {
    const dir = tempDir('picscan-dist-pause-');
    const config = loadConfig({ dataDir: dir }, {});
    const backend = createBackend(config, {
      batches: {
        processor: unavailableProcessor,
        distributed: { modelSet: modelSetOf(config.modelsDir), redisUrl: dist.redis.url, tuning: { reconcileMs: 1000, drainMs: 10_000 } },
      },
    });
    const open = { service: backend.batches(), close: () => backend.close() };
    const w = track(startWorkerChild(dist.redis.url, 'obedient'));
    await w.waitFor(/ready/);
    try {
      const backend = { kind: 'distributed' as const, redisUrl: dist.redis.url, queueKey: 'pausetest' };
      const operation = { kind: 'analyze' as const, features: ['Tags' as const], details: [] };
      const urls = slowUrls(dist.images, 'pz', 16, 500);
      const { batch } = await open.service.create(Readable.from([urls.join('\n')]), { name: 'p', operation, backend });
      const running = open.service.start(batch.id);
      await until(() => open.service.progress(batch.id).counts.done >= 2, 180_000, 'two done');
      const paused = await open.service.pause(batch.id);
      expect(paused.status).toBe('paused');
      await running;
      const hitsAtPause = dist.images.requests.length;
      await new Promise((r) => setTimeout(r, 2000));
      expect(dist.images.requests.length).toBe(hitsAtPause); // no worker fetches for a paused batch
      const finished = await open.service.start(batch.id);
      expect(finished.status).toBe('done');
      expectEachOnce(
        itemsOf(config.dbPath).filter((i) => i.url.includes('/pz/')),
        urls,
      );
      // Exports say which worker analysed each item.
      const csv = new PassThrough();
      const chunks: Buffer[] = [];
      csv.on('data', (c: Buffer) => chunks.push(c));
      await open.service.export({ batchId: batch.id }, 'csv', csv);
      const rows = parse(Buffer.concat(chunks).toString('utf8'), { columns: true }) as Array<{ url: string; worker: string }>;
      expect(rows).toHaveLength(urls.length);
      expect(rows.every((r) => r.worker === 'obedient')).toBe(true);

      const more = slowUrls(dist.images, 'cx', 16, 500);
      const second = await open.service.create(Readable.from([more.join('\n')]), {
        name: 'c',
        operation,
        backend: { ...backend, queueKey: 'canceltest' },
      });
      const run2 = open.service.start(second.batch.id);
      await until(() => open.service.progress(second.batch.id).counts.done >= 2, 180_000, 'two done');
      const cancelled = await open.service.cancel(second.batch.id);
      await run2;
      expect(cancelled.status).toBe('cancelled');
      const settled = itemsOf(config.dbPath).filter((i) => i.url.includes('/cx/'));
      expect(settled.every((i) => (i.status === 'done' && i.results === 1) || (i.status === 'skipped' && i.results === 0))).toBe(true);
      expect(settled.filter((i) => i.status === 'skipped').length).toBeGreaterThan(0);
      const hitsAtCancel = dist.images.requests.length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(dist.images.requests.length).toBe(hitsAtCancel);
    } finally {
      await open.close();
      await w.kill('SIGTERM');
    }
  });
});
