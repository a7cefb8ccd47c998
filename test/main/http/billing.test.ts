import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { getQuery, intakeOperations, postJson, realOperations, startApi } from './harness';

let images: FixtureServer;
beforeAll(async () => {
  images = await startFixtureServer();
  for (const name of ['/cat.jpg', '/noface.jpg'])
    images.route(name, { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
});
afterAll(() => images.close());

const balanceOf = (api: Awaited<ReturnType<typeof startApi>>, id: number): number => api.api.keys.get(id).balanceMicrocents;

describe('credits', () => {
  it('charges each processed call its tier price and stops with 402 when the balance falls under 0.09¢', async () => {
    const api = await startApi({ operations: intakeOperations() });
    // $0.0012 = 120 000 µ¢; basic costs 3 000 µ¢; calls are admitted while the balance is ≥ 90 000 µ¢.
    const k = api.api.keys.create({ name: 'small', tier: 'basic', creditMicrocents: 120_000 });
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++)
      statuses.push((await postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg') }, k.key)).status);
    expect(statuses).toEqual([...Array<number>(11).fill(200), 402, 402, 402]);
    expect(balanceOf(api, k.id)).toBe(120_000 - 11 * 3_000);
    expect(api.api.credits.chargedCount(k.id)).toBe(11);
    const refused = await postJson(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg') }, k.key);
    expect(refused.status).toBe(402);
    expect(refused.json).toMatchObject({ Errors: [{ ErrCode: 3010, Message: expect.stringMatching(/0\.09/) }] });
    api.api.keys.topUp(k.id, 10_000);
    expect((await getQuery(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), key: k.key })).status).toBe(200);
    await api.close();
  });

  it('charges detect calls that processed an image (5002 included) but not refused or failed ones', async () => {
    const api = await startApi({ operations: intakeOperations() });
    const k = api.api.keys.create({ name: 'pro', tier: 'pro', creditMicrocents: 1_000_000 });
    const ok = await postJson(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg') }, k.key);
    const none = await postJson(`${api.url}/ai/faces/detect`, { image: images.url('/noface.jpg') }, k.key);
    expect(none.json).toMatchObject({ Errors: [{ ErrCode: 5002 }] });
    expect(none.headers['x-transaction-id']).toBeTruthy();
    await postJson(`${api.url}/ai/faces/detect`, { image: images.url('/missing.jpg') }, k.key); // 404 → 5001
    await postJson(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg'), minHeadScale: 9 }, k.key); // 1003
    await postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), features: 'Nope' }, k.key);
    expect(ok.status).toBe(200);
    expect(balanceOf(api, k.id)).toBe(1_000_000 - 2 * 2_000);
    expect(api.api.credits.chargedCount(k.id)).toBe(2);
    const txs = api.db.prepare('SELECT operation, price_microcents AS p, status FROM api_transactions WHERE key_id = ?').all(k.id);
    expect(txs).toEqual([
      { operation: 'detect', p: 2000, status: 'charged' },
      { operation: 'detect', p: 2000, status: 'charged' },
    ]);
    await api.close();
  });

  it('200 concurrent requests charge exactly once each: balance drop == successes × price', async () => {
    // Stand-in operations: 200 real analyses take ~100 s on a 2-core CI runner; the real-model
    // variant below sends 20 at once through the same path.
    const ops = intakeOperations();
    const api = await startApi({ operations: ops });
    const k = api.api.keys.create({ name: 'burst', tier: 'pro', creditMicrocents: 1_000_000 });
    // 1 000 000 µ¢ at 2 000 µ¢ with a 90 000 µ¢ floor: 456 calls fit, so all 200 should pass.
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        i % 2 === 0
          ? postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg') }, k.key)
          : getQuery(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg'), key: k.key }),
      ),
    );
    const successes = results.filter((r) => r.status === 200 && !('Errors' in r.json)).length;
    expect(successes).toBe(200);
    const txIds = new Set(results.map((r) => r.headers['x-transaction-id']));
    expect(txIds.size).toBe(200);
    expect(1_000_000 - balanceOf(api, k.id)).toBe(successes * 2_000);
    expect(api.api.credits.chargedCount(k.id)).toBe(successes);
    await api.close();
  });

  it('20 concurrent requests on the real models charge exactly once each (5002 included)', async () => {
    const ops = realOperations();
    const api = await startApi({ operations: ops });
    const k = api.api.keys.create({ name: 'real', tier: 'basic', creditMicrocents: 1_000_000 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), features: 'Tags,Color' }, k.key)
          : getQuery(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg'), key: k.key }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    // The cat has no human face: detect answers 5002, a processed (charged) call.
    expect(results.filter((r) => 'Errors' in r.json).map((r) => (r.json.Errors as Array<{ ErrCode: number }>)[0]!.ErrCode)).toEqual(
      Array(10).fill(5002),
    );
    expect(1_000_000 - balanceOf(api, k.id)).toBe(20 * 3_000);
    expect(api.api.credits.chargedCount(k.id)).toBe(20);
    await api.close();
    await ops.close();
  });

  it('concurrent calls never overspend a small balance', async () => {
    const api = await startApi({ operations: intakeOperations() });
    const k = api.api.keys.create({ name: 'tight', tier: 'pro', creditMicrocents: 100_000 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg') }, k.key)),
    );
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(6); // 100 000 → 88 000 after six 2 000 µ¢ calls
    expect(results.filter((r) => r.status === 402).length).toBe(44);
    expect(balanceOf(api, k.id)).toBe(100_000 - ok * 2_000);
    await api.close();
  });
});

describe('tiers', () => {
  it('refuses a free-tier key (not offered) with 403 and a clear message', async () => {
    const api = await startApi({ operations: intakeOperations() });
    const k = api.api.keys.create({ name: 'was basic', tier: 'basic' });
    api.db.prepare("UPDATE api_keys SET tier = 'free' WHERE id = ?").run(k.id);
    const a = await postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg') }, k.key);
    expect(a.status).toBe(403);
    expect(a.json).toMatchObject({
      status: false,
      error: { code: 'TierUnavailable', message: expect.stringMatching(/free tier exists but is not available/) },
    });
    const d = await getQuery(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg'), key: k.key });
    expect(d.status).toBe(403);
    expect(d.json).toMatchObject({ Errors: [{ ErrCode: 3011 }] });
    await api.close();
  });
});

describe('rate limits', () => {
  it('answers 429 with the seconds to the next minute after 100 calls in a minute (basic)', async () => {
    let now = Date.UTC(2026, 5, 1, 12, 30, 12, 400);
    const api = await startApi({ operations: intakeOperations(), nowMs: () => now });
    const k = api.api.keys.create({ name: 'limit', tier: 'basic' });
    const first = await Promise.all(
      Array.from({ length: 100 }, () => getQuery(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), key: k.key })),
    );
    expect(first.every((r) => r.status === 200)).toBe(true);
    const over = await getQuery(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), key: k.key });
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe('48'); // 12.4 s into the minute → 47.6 s left, rounded up
    expect(over.json).toMatchObject({
      status: false,
      error: { code: 'TooManyRequests', message: expect.stringMatching(/100 calls per minute/) },
    });
    const overDetect = await postJson(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg') }, k.key);
    expect(overDetect.status).toBe(429);
    expect(overDetect.json).toMatchObject({ Errors: [{ ErrCode: 3000 }] });
    expect(api.api.credits.chargedCount(k.id)).toBe(100); // refused calls cost nothing
    now += 48_000;
    expect((await getQuery(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), key: k.key })).status).toBe(200);
    await api.close();
  });

  it('pro admits 200 per minute', async () => {
    const now = Date.UTC(2026, 5, 1, 12, 30, 0);
    const api = await startApi({ operations: intakeOperations(), nowMs: () => now });
    const k = api.api.keys.create({ name: 'pro', tier: 'pro' });
    const r = await Promise.all(
      Array.from({ length: 201 }, () => postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg') }, k.key)),
    );
    expect(r.filter((x) => x.status === 200).length).toBe(200);
    expect(r.filter((x) => x.status === 429).map((x) => x.headers['retry-after'])).toEqual(['60']);
    await api.close();
  });
});
