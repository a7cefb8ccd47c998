import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core';
import { HOST_BREAKER, HostBreaker, isTransient } from '../../../src-main/jobs';
import { createTestDb } from '../../helpers/db';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { batchOptions, fakeProcessor, fixture, listOf, makeService } from './support';

// A host that stops answering must not hold a batch's downloads: after a few timeouts in a row
// its further URLs fail at once, saying why. Real loopback servers: one that accepts requests
// and never answers, one that serves images.

const timeout = (): AppError => new AppError('image-timeout', 'took too long', { details: { phase: 'total', answered: false } });

describe('HostBreaker', () => {
  it('opens after the timeouts in a row, for that host only, and lets requests through again after the cool-down', () => {
    let now = 0;
    const breaker = new HostBreaker({ openAfterTimeouts: 3, coolDownMs: 60_000 }, () => now);
    const dead = 'http://dead.example:8080/a.jpg';
    for (let i = 0; i < 2; i++) breaker.record(dead, timeout());
    expect(() => breaker.check(dead)).not.toThrow();
    breaker.record(dead, timeout());
    let refusal: unknown;
    try {
      breaker.check('http://dead.example:8080/other.jpg');
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({ code: 'image-timeout', details: { phase: 'host', host: 'dead.example:8080', timeouts: 3 } });
    expect((refusal as Error).message).toMatch(/last 3 requests to dead\.example:8080 got no answer in time.*tried again after 60 s/);
    expect(isTransient(refusal)).toBe(false);
    expect(isTransient(timeout())).toBe(true);
    // Another port is another host; a file path has none.
    expect(() => breaker.check('http://dead.example:8081/a.jpg')).not.toThrow();
    expect(() => breaker.check('/photos/a.jpg')).not.toThrow();

    // After the cool-down one more request goes out; another timeout opens it again at once.
    now = 60_000;
    expect(() => breaker.check(dead)).not.toThrow();
    breaker.record(dead, timeout());
    now = 60_001;
    expect(() => breaker.check(dead)).toThrow(/not answering/);

    // A slow transfer after the host answered is no sign of a host that is down.
    const slow = new AppError('image-timeout', 'took too long', { details: { phase: 'total', answered: true } });
    const other = 'http://slow.example/a.jpg';
    for (let i = 0; i < 5; i++) breaker.record(other, slow);
    expect(() => breaker.check(other)).not.toThrow();

    // An answer, even an error response, closes it.
    now = 120_001;
    breaker.check(dead);
    breaker.record(dead, new AppError('image-fetch-failed', 'HTTP 404', { details: { status: 404 } }));
    breaker.record(dead, timeout());
    breaker.record(dead, timeout());
    expect(() => breaker.check(dead)).not.toThrow();
  });
});

let dead: FixtureServer;
let good: FixtureServer;
const hanging: ServerResponse[] = [];
const DEAD_URLS = 12;
const SLOW_URLS = 5;

beforeAll(async () => {
  dead = await startFixtureServer();
  good = await startFixtureServer();
  for (let i = 0; i < DEAD_URLS; i++) dead.route(`/p/${i}.jpg`, (_req, res) => void hanging.push(res));
  for (let i = 0; i < 4; i++) good.route(`/p/${i}.jpg`, [{ file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } }]);
  // Answers at once, then sends the image far slower than the fetch timeout allows.
  for (let i = 0; i < SLOW_URLS; i++) good.route(`/slow/${i}.jpg`, { file: fixture('cat_chelsea.jpg'), chunkSize: 256, chunkDelayMs: 100 });
});
afterAll(async () => {
  for (const res of hanging.splice(0)) res.destroy();
  await dead?.close();
  await good?.close();
});

describe('a batch with a host that does not answer', () => {
  it('stops asking it after a few timeouts: its other URLs fail at once with the reason, the rest is analysed', async () => {
    const db = createTestDb();
    const service = makeService(db, fakeProcessor(), { totalTimeoutMs: 400, maxRetries: 0 });
    const urls = [
      ...Array.from({ length: DEAD_URLS }, (_, i) => dead.url(`/p/${i}.jpg`)),
      ...[0, 1, 2, 3].map((i) => good.url(`/p/${i}.jpg`)),
    ];
    const downloadConcurrency = 4;
    const { batch } = await service.create(listOf(urls), batchOptions({ downloadConcurrency }));
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ done: 4, failed: DEAD_URLS });

    // Without the breaker: every URL three times (36 requests). With it: the requests in flight
    // when it opened, and none after.
    const requests = Array.from({ length: DEAD_URLS }, (_, i) => dead.hits(`/p/${i}.jpg`)).reduce((a, b) => a + b, 0);
    expect(requests).toBeGreaterThanOrEqual(HOST_BREAKER.openAfterTimeouts);
    expect(requests).toBeLessThanOrEqual(downloadConcurrency + HOST_BREAKER.openAfterTimeouts);

    const failed = service.resultsPage({ filter: { batchId: batch.id, status: ['failed'] } }).items;
    expect(failed).toHaveLength(DEAD_URLS);
    for (const item of failed) expect(item.error?.code).toBe('image-timeout');
    const refused = failed.filter((item) => /is not answering/.test(item.error?.message ?? ''));
    expect(refused.length).toBeGreaterThanOrEqual(DEAD_URLS - downloadConcurrency);
  });
});

describe('a batch with a host that answers but sends too slowly', () => {
  it('keeps asking it: each URL gets its three attempts (a slow transfer is not a host that is down)', async () => {
    const db = createTestDb();
    const service = makeService(db, fakeProcessor(), { totalTimeoutMs: 300, maxRetries: 0 });
    const urls = Array.from({ length: SLOW_URLS }, (_, i) => good.url(`/slow/${i}.jpg`));
    const { batch } = await service.create(listOf(urls), batchOptions({ downloadConcurrency: 4 }));
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ failed: SLOW_URLS });
    for (let i = 0; i < SLOW_URLS; i++) expect(good.hits(`/slow/${i}.jpg`)).toBe(3);
    for (const item of service.resultsPage({ filter: { batchId: batch.id } }).items)
      expect(item.error?.message).toMatch(/took longer than/);
  });
});
