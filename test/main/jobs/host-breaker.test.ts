import type { ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, silentLogger, sleep } from '../../../src-main/core';
import {
  createIntakeFetcher,
  HELD_RECHECK_MS,
  HostBreaker,
  isTransient,
  TRACKED_HOSTS,
  type HostBreakerRule,
} from '../../../src-main/jobs';
import { intakeOptions } from '../../../src-main/intake';
import { progressLine } from '../../../src-main/cli/commands/batch';
import { unavailableHostsText, type BatchProgress } from '../../../src-main/shared';
import { createTestDb } from '../../helpers/db';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { batchOptions, fakeProcessor, fixture, listOf, makeService } from './support';

// A host that stops answering must not hold a batch's downloads: after a few requests without an
// answer its URLs wait while one request at a time asks whether it is back; a host silent for
// long is taken for down and its URLs fail at once, saying why. Real loopback servers.

const unanswered = (): AppError => new AppError('image-timeout', 'took too long', { details: { phase: 'total', answered: false } });
const RULE: HostBreakerRule = { openAfterFailures: 3, coolDownMs: 1_000, giveUpAfterMs: 5_000, pollMs: 5 };
const settled = async (p: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> =>
  Promise.race([
    p.then(
      () => 'resolved' as const,
      () => 'rejected' as const,
    ),
    new Promise<'pending'>((r) => setTimeout(() => r('pending'), 30)),
  ]);

describe('HostBreaker', () => {
  it('holds a silent host’s URLs, lets one ask after the cool-down, releases them all on an answer', async () => {
    let now = 0;
    const breaker = new HostBreaker(RULE, () => now);
    const signal = new AbortController().signal;
    const dead = 'http://dead.example:8080/a.jpg';
    for (let i = 0; i < 2; i++) breaker.record(dead, false, unanswered());
    expect(await breaker.admit(dead, signal)).toEqual({ probe: false });
    breaker.record(dead, false, unanswered());

    const waiting = breaker.admit('http://dead.example:8080/b.jpg', signal);
    expect(await settled(waiting)).toBe('pending');
    // Another port is another host; a file path has none.
    expect(await breaker.admit('http://dead.example:8081/a.jpg', signal)).toEqual({ probe: false });
    expect(await breaker.admit('/photos/a.jpg', signal)).toEqual({ probe: false });

    now = 1_000; // the cool-down is over: one request asks, the other keeps waiting
    expect(await waiting).toEqual({ probe: true });
    const next = breaker.admit('http://dead.example:8080/c.jpg', signal);
    expect(await settled(next)).toBe('pending');
    breaker.record(dead, true); // the host answered the probe
    expect(await next).toEqual({ probe: false });
  });

  it('takes a host silent for giveUpAfterMs for down: its URLs fail at once with the reason, one still asks per cool-down', async () => {
    let now = 0;
    const breaker = new HostBreaker(RULE, () => now);
    const signal = new AbortController().signal;
    const url = 'http://dead.example/a.jpg';
    for (let i = 0; i < 3; i++) breaker.record(url, false, unanswered());
    now = 4_800;
    expect(await breaker.admit(url, signal)).toEqual({ probe: true });
    breaker.record(url, true, unanswered()); // the next probe at 5 800
    now = 5_500;
    const refusal = await breaker.admit(url, signal).catch((err: unknown) => err);
    expect(refusal).toMatchObject({
      code: 'image-timeout',
      details: { phase: 'host', host: 'dead.example', failures: 4, reason: 'no answer in time' },
    });
    expect((refusal as Error).message).toBe(
      'Not fetched: dead.example has been unavailable for 6 s (the last 4 requests: no answer in time), so the host is taken for down; retry the failed items later.',
    );
    expect(isTransient(refusal)).toBe(false);
    expect(isTransient(unanswered())).toBe(true);
    now = 5_800; // the probe's cool-down is over: it is asked again
    expect(await breaker.admit(url, signal)).toEqual({ probe: true });
  });

  it('says when a host becomes unavailable, is taken for down and answers again, once each', async () => {
    let now = 0;
    const lines: string[] = [];
    const logger = {
      ...silentLogger,
      info: (m: string) => void lines.push(`info ${m}`),
      warn: (m: string) => void lines.push(`warn ${m}`),
    };
    const breaker = new HostBreaker(RULE, () => now, logger);
    const url = 'http://dead.example/a.jpg';
    for (let i = 0; i < 3; i++) breaker.record(url, false, unanswered());
    now = 5_000;
    for (let i = 0; i < 2; i++) await breaker.admit(url, new AbortController().signal).catch(() => undefined);
    now = 7_000;
    breaker.record(url, false);
    expect(lines).toEqual([
      'warn Image host dead.example unavailable (no answer in time, 3 requests in a row): its images wait; one request per 1 s asks whether it is back.',
      'warn Image host dead.example taken for down: its images fail until it answers again.',
      'info Image host dead.example answers again after 7 s.',
    ]);
  });

  it('counts failures far apart as no outage', async () => {
    let now = 0;
    const breaker = new HostBreaker(RULE, () => now);
    const url = 'http://sparse.example/a.jpg';
    for (const at of [0, 6_000, 12_000]) {
      now = at;
      breaker.record(url, false, unanswered());
    }
    expect(await breaker.admit(url, new AbortController().signal)).toEqual({ probe: false });
    now = 12_100;
    breaker.record(url, false, unanswered());
    breaker.record(url, false, unanswered());
    expect(await settled(breaker.admit(url, new AbortController().signal))).toBe('pending');
  });

  it('lets only the first waiting URL look by the clock; the others are woken by the host’s answer or its give-up', async () => {
    let now = 0;
    let looks = 0;
    const rule: HostBreakerRule = { ...RULE, pollMs: 50 }; // the others look at most every 2 s unwoken
    const breaker = new HostBreaker(rule, () => (looks++, now));
    const url = (i: number): string => `http://dead.example/${i}.jpg`;
    for (let i = 0; i < 3; i++) breaker.record(url(i), false, unanswered());
    const signal = new AbortController().signal;
    const waiting = Array.from({ length: 200 }, (_, i) => breaker.admit(url(i), signal));
    await sleep(20);
    looks = 0;
    await sleep(1_000);
    // One URL looking every 50 ms is about 20 looks a second; 200 polling would be 4 000.
    expect(looks).toBeLessThan(100);
    breaker.record(url(0), false); // the host answered another request: all go on at once
    const all = Promise.all(waiting);
    expect(await settled(all)).toBe('resolved');

    for (let i = 0; i < 3; i++) breaker.record(url(i), false, unanswered());
    const refused = Array.from({ length: 200 }, (_, i) => breaker.admit(url(i), signal).catch((err: unknown) => err));
    await sleep(20);
    now = rule.giveUpAfterMs; // the first in line sees it, the rest are woken as it leaves
    const errors = await Promise.race([Promise.all(refused), sleep(1_000).then(() => [])]);
    expect(errors).toHaveLength(200);
    // One of them asks (a given-up host is still asked once per cool-down); the rest are refused.
    expect(errors.filter((e) => (e as { probe?: boolean }).probe === true)).toHaveLength(1);
    for (const err of errors.filter((e) => e instanceof AppError))
      expect(err).toMatchObject({ code: 'image-timeout', details: { phase: 'host' } });
    expect(errors.filter((e) => e instanceof AppError)).toHaveLength(199);
  });

  it('tells a caller that can put URLs aside how long to hold them, counting them as waiting until they come back', async () => {
    let now = 0;
    const breaker = new HostBreaker(RULE, () => now);
    const signal = new AbortController().signal;
    const url = (i: number): string => `http://dead.example/${i}.jpg`;
    expect(breaker.holdFor(url(0), 7)).toBe(0); // a host that answers: fetch now
    for (let i = 0; i < 3; i++) breaker.record(url(i), false, unanswered());
    expect(breaker.holdFor(url(1), 7)).toBe(RULE.coolDownMs); // back when the next request may ask
    expect(breaker.holdFor(url(2), 7)).toBe(RULE.coolDownMs);
    expect(breaker.unavailableHosts(7)).toEqual([{ host: 'dead.example', reason: 'no answer in time', unavailableSeconds: 0, waiting: 2 }]);
    expect(breaker.unavailableHosts(8)).toEqual([]);

    now = RULE.coolDownMs; // the turn to ask is free: the first URL back takes it
    expect(breaker.holdFor(url(1), 7)).toBe(0);
    expect(await breaker.admit(url(1), signal, 7)).toEqual({ probe: true });
    expect(breaker.holdFor(url(2), 7)).toBe(HELD_RECHECK_MS); // one request asks: look again soon
    breaker.record(url(1), true, unanswered()); // it did not answer
    expect(breaker.holdFor(url(3), 7)).toBe(RULE.coolDownMs);
    expect(breaker.unavailableHosts(7)[0]!.waiting).toBe(2);
    // A held URL that never came back (another worker took it) stops counting a cool-down after
    // it was due: URL 3 was due at 2 000, URL 2 at 6 000.
    now = 3 * RULE.coolDownMs + 1;
    expect(breaker.unavailableHosts(7)[0]!.waiting).toBe(1);

    now = RULE.giveUpAfterMs; // taken for down: no hold; one still asks, the others are refused at once
    expect(breaker.holdFor(url(4), 7)).toBe(0);
    expect(breaker.holdFor(url(5), 7)).toBe(0);
    expect(await breaker.admit(url(4), signal, 7)).toEqual({ probe: true });
    await expect(breaker.admit(url(5), signal, 7)).rejects.toMatchObject({ details: { phase: 'host' } });
  });

  it('forgets streaks older than the give-up time once many hosts failed, keeping unavailable hosts', async () => {
    let now = 0;
    const breaker = new HostBreaker(RULE, () => now);
    const down = 'http://down.example/a.jpg';
    for (let i = 0; i < 3; i++) breaker.record(down, false, unanswered());
    // A long list of many hosts, each timing out once.
    for (let i = 0; i < TRACKED_HOSTS; i++) breaker.record(`http://h${i}.example/a.jpg`, false, unanswered());
    expect(breaker.trackedHosts).toBe(TRACKED_HOSTS + 1); // all recent: nothing to forget
    now = RULE.giveUpAfterMs + 1;
    // The next sweep comes once the table has doubled; it drops the old streaks only.
    for (let i = 0; i < TRACKED_HOSTS + 2; i++) breaker.record(`http://late${i}.example/a.jpg`, false, unanswered());
    expect(breaker.trackedHosts).toBe(TRACKED_HOSTS + 3);
    expect(breaker.unavailable(down)).toBe(true);
    expect(breaker.unavailable('http://h1.example/a.jpg')).toBe(false);
  });

  it('counts no slow transfer after an answer, resets on any answer, and stops waiting when the run stops', async () => {
    const breaker = new HostBreaker(RULE, () => 0);
    const slow = new AppError('image-timeout', 'took too long', { details: { phase: 'total', answered: true } });
    for (let i = 0; i < 5; i++) breaker.record('http://slow.example/a.jpg', false, slow);
    expect(await breaker.admit('http://slow.example/b.jpg', new AbortController().signal)).toEqual({ probe: false });

    const url = 'http://flaky.example/a.jpg';
    breaker.record(url, false, unanswered());
    breaker.record(url, false, unanswered());
    breaker.record(url, false, new AppError('image-fetch-failed', 'HTTP 404', { details: { status: 404 } }));
    breaker.record(url, false, unanswered());
    breaker.record(url, false, unanswered());
    expect(await breaker.admit(url, new AbortController().signal)).toEqual({ probe: false });

    // 502/503/504 to every request: the host is unavailable too (a 500 or 404 is one image's).
    const down = 'http://maintenance.example/a.jpg';
    const status = (n: number): AppError => new AppError('image-fetch-failed', `HTTP ${n}`, { details: { status: n } });
    for (const n of [500, 404, 500]) breaker.record(down, false, status(n));
    expect(await breaker.admit(down, new AbortController().signal)).toEqual({ probe: false });
    for (const n of [503, 502, 503]) breaker.record(down, false, status(n));
    expect(await settled(breaker.admit(down, new AbortController().signal))).toBe('pending');
    expect(breaker.unavailableHosts(0)).toEqual([]);

    breaker.record(url, false, unanswered());
    const stop = new AbortController();
    const waiting = breaker.admit(url, stop.signal);
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
  });
});

let silent: FixtureServer;
let good: FixtureServer;
const held: ServerResponse[] = [];
const cat = readFileSync(fixture('cat_chelsea.jpg'));
/** While true, /p/* on the flaky server hangs; then it serves. */
let flakyDown = true;
let flaky: FixtureServer;
/** Answers every request with 503 (down for maintenance). */
let maintenance: FixtureServer;
const URLS = 12;
const SLOW_URLS = 5;
/** Short times for a test: fetch timeout 300 ms, so a silent host costs about a second. */
const TEST_RULE: HostBreakerRule = { openAfterFailures: 3, coolDownMs: 300, giveUpAfterMs: 1_500, pollMs: 20 };
const fetcherWith = (rule: HostBreakerRule) =>
  createIntakeFetcher(intakeOptions('desktop', { retryBaseDelayMs: 5, maxRetryDelayMs: 50, totalTimeoutMs: 300, maxRetries: 0 }), { rule });

beforeAll(async () => {
  [silent, good, flaky, maintenance] = await Promise.all([
    startFixtureServer(),
    startFixtureServer(),
    startFixtureServer(),
    startFixtureServer(),
  ]);
  for (let i = 0; i < URLS; i++) {
    silent.route(`/p/${i}.jpg`, (_req, res) => void held.push(res));
    flaky.route(`/p/${i}.jpg`, (_req, res) => {
      if (flakyDown) return void held.push(res);
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': cat.length }).end(cat);
    });
  }
  for (let i = 0; i < URLS; i++) maintenance.route(`/p/${i}.jpg`, { status: 503 });
  for (let i = 0; i < 4; i++) good.route(`/p/${i}.jpg`, [{ file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } }]);
  // Answers at once, then sends the image far slower than the fetch timeout allows.
  for (let i = 0; i < SLOW_URLS; i++) good.route(`/slow/${i}.jpg`, { file: fixture('cat_chelsea.jpg'), chunkSize: 256, chunkDelayMs: 100 });
});
afterAll(async () => {
  for (const res of held.splice(0)) res.destroy();
  await Promise.all([silent?.close(), good?.close(), flaky?.close(), maintenance?.close()]);
});

const requestsTo = (s: FixtureServer): number => Array.from({ length: URLS }, (_, i) => s.hits(`/p/${i}.jpg`)).reduce((a, b) => a + b, 0);

/**
 * A batch service whose flaky host is down now, with a cool-down long enough that no URL spends
 * its attempts asking before the host is back.
 */
function outageService(): ReturnType<typeof makeService> {
  flakyDown = true;
  return makeService(
    createTestDb(),
    fakeProcessor(),
    {},
    { fetcher: fetcherWith({ ...TEST_RULE, coolDownMs: 2_000, giveUpAfterMs: 20_000 }) },
  );
}

describe('a batch with a host that does not answer', () => {
  it('stops asking it: once taken for down its URLs fail at once with the reason, and the other host’s images are analysed', async () => {
    const db = createTestDb();
    const service = makeService(db, fakeProcessor(), {}, { fetcher: fetcherWith(TEST_RULE) });
    const urls = [
      ...Array.from({ length: URLS }, (_, i) => silent.url(`/p/${i}.jpg`)),
      ...[0, 1, 2, 3].map((i) => good.url(`/p/${i}.jpg`)),
    ];
    const { batch } = await service.create(listOf(urls), batchOptions({ downloadConcurrency: 4 }));
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ done: 4, failed: URLS });
    // Without the breaker every URL is asked three times (36 requests, each a 300 ms timeout).
    expect(requestsTo(silent)).toBeLessThanOrEqual(12);
    const failed = service.resultsPage({ filter: { batchId: batch.id, status: ['failed'] } }).items;
    for (const item of failed) expect(item.error?.code).toBe('image-timeout');
    expect(failed.filter((item) => /taken for down/.test(item.error?.message ?? '')).length).toBeGreaterThanOrEqual(URLS / 2);
  });

  it('treats a host answering 503 to everything the same: its URLs fail with the reason after a few requests', async () => {
    const service = makeService(createTestDb(), fakeProcessor(), {}, { fetcher: fetcherWith(TEST_RULE) });
    const { batch } = await service.create(
      listOf(Array.from({ length: URLS }, (_, i) => maintenance.url(`/p/${i}.jpg`))),
      batchOptions({ downloadConcurrency: 4 }),
    );
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ failed: URLS });
    // Without the breaker every URL is asked three times (36 requests).
    expect(requestsTo(maintenance)).toBeLessThanOrEqual(12);
    const failed = service.resultsPage({ filter: { batchId: batch.id } }).items;
    expect(
      failed.filter((item) => /has been unavailable for \d+ s \(the last \d+ requests: HTTP 503\)/.test(item.error?.message ?? '')).length,
    ).toBeGreaterThanOrEqual(URLS / 2);
  });

  it('waits through a short outage: its URLs are fetched once the host answers again, none fails', async () => {
    const db = createTestDb();
    const service = makeService(db, fakeProcessor(), {}, { fetcher: fetcherWith({ ...TEST_RULE, giveUpAfterMs: 20_000 }) });
    const urls = Array.from({ length: URLS }, (_, i) => flaky.url(`/p/${i}.jpg`));
    const { batch } = await service.create(listOf(urls), batchOptions({ downloadConcurrency: 4 }));
    const back = setTimeout(() => (flakyDown = false), 1_500);
    // The batch's progress says what it waits for while the host is silent.
    const waits: BatchProgress[] = [];
    const off = service.onProgress((p) => void (p.batchId === batch.id && p.unavailableHosts && waits.push(p)));
    try {
      // Asking whether the host is back costs the asking URL an attempt; the turn goes round
      // the waiting URLs, so none spends its three attempts before the host is back.
      const summary = await service.start(batch.id);
      expect(summary.counts).toMatchObject({ done: URLS, failed: 0 });
    } finally {
      clearTimeout(back);
      off();
    }
    expect(waits.length).toBeGreaterThan(0);
    const host = new URL(flaky.url('/')).host;
    expect(waits[0]!.unavailableHosts).toEqual([
      { host, reason: 'no answer in time', unavailableSeconds: expect.any(Number), waiting: expect.any(Number) },
    ]);
    expect(waits[0]!.unavailableHosts![0]!.waiting).toBeGreaterThanOrEqual(1);
    expect(progressLine(waits[0]!).endsWith(`; ${unavailableHostsText(waits[0]!.unavailableHosts!)}`)).toBe(true);
    expect(unavailableHostsText(waits[0]!.unavailableHosts!)).toMatch(
      /^127\.0\.0\.1:\d+ unavailable for \d+ s \(no answer in time\); \d+ images? waits? for it$/,
    );
    expect(service.progress(batch.id).unavailableHosts).toBeUndefined();
  });

  it('fetches the other hosts’ images while one host’s URLs wait for it (waiting URLs hold no download slot)', async () => {
    const service = outageService();
    // The unavailable host's URLs come first and outnumber the download slots four times.
    const urls = [...Array.from({ length: URLS }, (_, i) => flaky.url(`/p/${i}.jpg`)), ...[0, 1, 2, 3].map((i) => good.url(`/p/${i}.jpg`))];
    const { batch } = await service.create(listOf(urls), batchOptions({ downloadConcurrency: 3 }));
    const run = service.start(batch.id);
    try {
      const deadline = Date.now() + 6_000;
      while (service.progress(batch.id).counts.done < 4 && Date.now() < deadline) await sleep(50);
      const progress = service.progress(batch.id);
      // Before: the waiting URLs held all three slots, and the other host's images waited for the outage's end.
      expect(progress.counts).toMatchObject({ done: 4, failed: 0 });
      expect(progress.unavailableHosts?.[0]).toMatchObject({ host: new URL(flaky.url('/')).host, reason: 'no answer in time' });
      expect(progress.unavailableHosts![0]!.waiting).toBeGreaterThan(3);
    } finally {
      flakyDown = false;
    }
    const summary = await run;
    expect(summary.counts).toMatchObject({ done: URLS + 4, failed: 0 });
  });

  it('pauses while URLs wait for their host: they go back to the queue unfailed, and the resume finishes them', async () => {
    const service = outageService();
    const urls = Array.from({ length: URLS }, (_, i) => flaky.url(`/p/${i}.jpg`));
    const { batch } = await service.create(listOf(urls), batchOptions({ downloadConcurrency: 3 }));
    const run = service.start(batch.id);
    const deadline = Date.now() + 6_000;
    while ((service.progress(batch.id).unavailableHosts?.[0]?.waiting ?? 0) < 3 && Date.now() < deadline) await sleep(20);
    expect(service.progress(batch.id).unavailableHosts?.[0]?.waiting).toBeGreaterThanOrEqual(3);
    const paused = await service.pause(batch.id);
    await run;
    expect(paused.status).toBe('paused');
    expect(paused.counts).toMatchObject({ done: 0, failed: 0, queued: URLS });
    flakyDown = false;
    const summary = await service.resume(batch.id);
    expect(summary.counts).toMatchObject({ done: URLS, failed: 0 });
  });
});

describe('a batch with a host that answers but sends too slowly', () => {
  it('keeps asking it: each URL gets its three attempts (a slow transfer is not a host that is down)', async () => {
    const db = createTestDb();
    const service = makeService(db, fakeProcessor(), {}, { fetcher: fetcherWith(TEST_RULE) });
    const urls = Array.from({ length: SLOW_URLS }, (_, i) => good.url(`/slow/${i}.jpg`));
    const { batch } = await service.create(listOf(urls), batchOptions({ downloadConcurrency: 4 }));
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ failed: SLOW_URLS });
    for (let i = 0; i < SLOW_URLS; i++) expect(good.hits(`/slow/${i}.jpg`)).toBe(3);
    for (const item of service.resultsPage({ filter: { batchId: batch.id } }).items)
      expect(item.error?.message).toMatch(/took longer than/);
  });
});
