import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src-main/config';
import { loadImage } from '../../../src-main/intake';
import { BatchService } from '../../../src-main/services/batches.service';
import { wireMapping } from '../../../src-main/shared';
import { createTestDb } from '../../helpers/db';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { batchOptions, fakeProcessor, listOf, makeService } from '../jobs/support';
import { expectAppError, testOptions } from './support';

const CAT = fixture('cat_chelsea.jpg'); // 451 × 300

describe('Retry-After', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('fails at once on 429 with Retry-After: 3600, asking once, with the code and the retry time', async () => {
    server.route('/hour.jpg', { status: 429, headers: { 'retry-after': '3600' } });
    const start = Date.now();
    const err = await expectAppError(loadImage(server.url('/hour.jpg'), testOptions()), 'image-rate-limited');
    const expectedAt = start + 3_600_000;
    expect(Date.now() - start).toBeLessThan(10_000); // not the hour asked for
    expect(server.hits('/hour.jpg')).toBe(1);
    expect(err.message).toMatch(
      /HTTP 429 \(Too Many Requests\) and asks to retry after 1 h \(at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\), longer than the 60 s/,
    );
    expect(Math.abs(Date.parse(String(err.details?.retryAt)) - expectedAt)).toBeLessThan(2_000);
    expect(wireMapping(err.code)).toEqual({ status: 400, azure: 'InvalidImageUrl', kairos: 5001 });
  });

  it('fails at once on an HTTP-date an hour ahead', async () => {
    const at = new Date(Date.now() + 3_600_000);
    server.route('/date-hour.jpg', { status: 503, headers: { 'retry-after': at.toUTCString() } });
    const start = Date.now();
    const err = await expectAppError(loadImage(server.url('/date-hour.jpg'), testOptions()), 'image-rate-limited');
    expect(Date.now() - start).toBeLessThan(10_000); // not the hour asked for
    expect(server.hits('/date-hour.jpg')).toBe(1);
    expect(err.details).toMatchObject({ status: 503, retryAt: at.toISOString().replace(/\.\d{3}Z$/, 'Z') });
  });

  it('waits for Retry-After: 1, then succeeds', async () => {
    server.route('/second.jpg', [{ status: 429, headers: { 'retry-after': '1' } }, { file: CAT }]);
    const start = Date.now();
    const img = await loadImage(server.url('/second.jpg'), testOptions());
    expect(Date.now() - start).toBeGreaterThanOrEqual(1_000);
    expect(img.metadata.width).toBe(451);
    expect(server.hits('/second.jpg')).toBe(2);
  });

  it('waits for an HTTP-date a few seconds ahead, then succeeds', async () => {
    server.route('/date-soon.jpg', (_req, res, hit) => {
      if (hit === 1) res.writeHead(429, { 'retry-after': new Date(Date.now() + 2_000).toUTCString() }).end();
      else res.writeHead(200).end(readFileSync(CAT));
    });
    const start = Date.now();
    const img = await loadImage(server.url('/date-soon.jpg'), testOptions());
    // An HTTP date has 1 s resolution, so the wait is between 1 and 2 s.
    expect(Date.now() - start).toBeGreaterThanOrEqual(1_000);
    expect(img.metadata.width).toBe(451);
  });

  it('honours a wait longer than the backoff cap and the total timeout (the deadline pauses)', async () => {
    server.route('/three.jpg', [{ status: 503, headers: { 'retry-after': '3' } }, { file: CAT }]);
    const start = Date.now();
    const img = await loadImage(server.url('/three.jpg'), testOptions('desktop', { maxRetryDelayMs: 500, totalTimeoutMs: 2_000 }));
    expect(Date.now() - start).toBeGreaterThanOrEqual(3_000);
    expect(img.metadata.width).toBe(451);
  });

  it('fails with the time when the server still asks after every retry', async () => {
    server.route('/always.jpg', { status: 429, headers: { 'retry-after': '0' } });
    const err = await expectAppError(loadImage(server.url('/always.jpg'), testOptions('desktop', { maxRetries: 2 })), 'image-rate-limited');
    expect(server.hits('/always.jpg')).toBe(3);
    expect(err.message).toMatch(/kept asking after every retry/);
  });

  it('fails a batch item at once: the server is asked exactly once', async () => {
    server.route('/batch-hour.jpg', { status: 429, headers: { 'retry-after': '3600' } });
    const service = makeService(createTestDb(), fakeProcessor());
    const report = await service.create(listOf([server.url('/batch-hour.jpg')]), batchOptions());
    const start = Date.now();
    const summary = await service.start(report.batch.id);
    expect(Date.now() - start).toBeLessThan(10_000); // not the hour asked for
    expect(summary.counts).toMatchObject({ total: 1, failed: 1 });
    expect(server.hits('/batch-hour.jpg')).toBe(1);
    const [item] = service.resultsPage({ filter: { batchId: report.batch.id } }).items;
    expect(item?.error).toMatchObject({
      code: 'image-rate-limited',
      message: expect.stringMatching(/retry after 1 h \(at .*Z\)/) as unknown,
    });
  });

  it('the longest wait is a setting: maxRetryAfterSeconds 1 fails a batch item asked to wait 2 s', async () => {
    server.route('/two-seconds.jpg', { status: 429, headers: { 'retry-after': '2' } });
    const config = loadConfig(
      { dataDir: mkdtempSync(join(tmpdir(), 'picscan-retry-after-')), settings: { maxRetryAfterSeconds: 1, blockPrivateNetworks: false } },
      {},
    );
    expect(loadConfig({ dataDir: config.dataDir }, { PICSCAN_MAX_RETRY_AFTER_S: '5' }).maxRetryAfterSeconds).toBe(5);
    const service = new BatchService({ db: createTestDb(), config, processor: fakeProcessor() });
    const report = await service.create(listOf([server.url('/two-seconds.jpg')]), batchOptions());
    const summary = await service.start(report.batch.id);
    expect(summary.counts).toMatchObject({ total: 1, failed: 1 });
    expect(server.hits('/two-seconds.jpg')).toBe(1);
    const [item] = service.resultsPage({ filter: { batchId: report.batch.id } }).items;
    expect(item?.error?.code).toBe('image-rate-limited');
    await service.close();
  });
});
