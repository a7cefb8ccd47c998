/**
 * `GET|POST /ai/vision/thumbnail` on a real server over the real models: exact sizes and formats,
 * every error in analyze's envelope and codes, charging and the rate limits.
 */
import sharp from 'sharp';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, serverUrl } from '../../../src-main/http';
import { createApiServices } from '../../../src-main/services/api';
import { createTestDb } from '../../helpers/db';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { call, getQuery, postJson, realOperations, startApi, type ApiHarness } from './harness';

let images: FixtureServer;
let ops: ReturnType<typeof realOperations>;
let api: ApiHarness;
beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/portrait.jpg', { file: fixture('obama_portrait.jpg'), headers: { 'content-type': 'image/jpeg' } });
  images.route('/clipart.png', { file: fixture('cheese_clipart.png'), headers: { 'content-type': 'image/png' } });
  images.route('/notes.jpg', { body: 'plain text, not an image '.repeat(20), headers: { 'content-type': 'image/jpeg' } });
  ops = realOperations();
  api = await startApi({ operations: ops });
});
afterAll(async () => {
  await api?.close();
  await ops?.close();
  await images?.close();
});

const PATH = '/ai/vision/thumbnail';

/** GET or POST returning the raw body. */
async function fetchBytes(url: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}) {
  const res = await request(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body });
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

describe('thumbnail route: images', () => {
  it('GET returns a JPEG of exactly width × height for JPEG input, charged once at the tier price', async () => {
    const k = api.api.keys.create({ name: 'thumbs', tier: 'basic', creditMicrocents: 1_000_000 });
    const qs = new URLSearchParams({ image: images.url('/portrait.jpg'), width: '120', height: '80', key: k.key });
    const r = await fetchBytes(`${api.url}${PATH}?${qs.toString()}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(r.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 120, 80]);
    expect(r.headers['x-transaction-id']).toBeTruthy();
    expect(api.api.keys.get(k.id).balanceMicrocents).toBe(1_000_000 - 3_000);
    const txs = api.db.prepare('SELECT id, price_microcents AS p, status FROM api_transactions WHERE key_id = ?').all(k.id);
    expect(txs).toEqual([{ id: r.headers['x-transaction-id'], p: 3_000, status: 'charged' }]);
  });

  it('POST with smartCropping returns a PNG of exactly width × height for PNG input', async () => {
    const k = api.api.keys.create({ name: 'thumbs-pro', tier: 'pro', creditMicrocents: 1_000_000 });
    const r = await fetchBytes(`${api.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', key: k.key },
      body: JSON.stringify({ image: images.url('/clipart.png'), width: 50, height: 150, smartCropping: true }),
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('image/png');
    const meta = await sharp(r.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 50, 150]);
    expect(api.api.keys.get(k.id).balanceMicrocents).toBe(1_000_000 - 2_000);
  });
});

const envelope = (code: string) => ({ query: 'thumbnail', status: false, transaction: { Id: '', Method: '' }, error: { code } });

describe('thumbnail route: errors (analyze envelope and codes, never charged)', () => {
  it('refuses missing and unknown keys with 401', async () => {
    const params = { image: images.url('/portrait.jpg'), width: '10', height: '10' };
    const none = await getQuery(`${api.url}${PATH}`, params);
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject(envelope('Unauthorized'));
    const wrong = await getQuery(`${api.url}${PATH}`, { ...params, key: 'psk_nope' });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.json)).not.toContain('psk_nope');
  });

  it('another method on the thumbnail path is a 405 in the thumbnail envelope that names the methods it serves', async () => {
    const res = await call(`${api.url}${PATH}`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('GET, POST');
    expect(res.json).toMatchObject({ ...envelope('MethodNotAllowed'), response: 'PUT is not served on this path; use GET or POST.' });
    const unknown = await call(`${api.url}${PATH}/more`, { method: 'PUT' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({
      ...envelope('NotFound'),
      response: 'No route for PUT on this path. The API has GET and POST /ai/vision/analyze, /ai/vision/thumbnail and /ai/faces/detect.',
    });
  });

  it('400 BadArgument for a width or smartCropping nested too deep to quote, not an internal error', async () => {
    const k = api.api.keys.create({ name: 'deep-params', tier: 'basic' });
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    const image = JSON.stringify(images.url('/portrait.jpg'));
    for (const [body, message] of [
      [`{"image": ${image}, "width": ${deep}, "height": 10}`, '`width` is invalid: it must be an integer from 1 to 1024; got an array.'],
      [
        `{"image": ${image}, "width": 10, "height": 10, "smartCropping": ${deep}}`,
        '`smartCropping` is invalid: it must be true or false; got an array.',
      ],
    ]) {
      const res = await call(`${api.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', key: k.key }, body });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ ...envelope('BadArgument'), response: message });
    }
  });

  it('400 BadArgument for every bad or missing size and smartCropping, naming the parameter', async () => {
    const k = api.api.keys.create({ name: 'bad-params', tier: 'basic', creditMicrocents: 1_000_000 });
    const base = { image: images.url('/portrait.jpg'), width: 10, height: 10 };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ width: 0 }, 'width'],
      [{ width: 1025 }, 'width'],
      [{ height: -3 }, 'height'],
      [{ height: 12.5 }, 'height'],
      [{ width: 'wide' }, 'width'],
      [{ width: '1e2' }, 'width'],
      [{ width: undefined }, 'width'],
      [{ height: '' }, 'height'],
      [{ smartCropping: 'maybe' }, 'smartCropping'],
      [{ smartCropping: 1 }, 'smartCropping'],
      [{ image: undefined }, 'image'],
      [{ image: 42 }, 'image'],
    ];
    for (const [override, name] of cases) {
      const r = await postJson(`${api.url}${PATH}`, { ...base, ...override }, k.key);
      expect(r.status, JSON.stringify(override)).toBe(400);
      expect(r.json, JSON.stringify(override)).toMatchObject(envelope('BadArgument'));
      expect((r.json.error as { message: string }).message).toContain(name);
    }
    const q = await getQuery(`${api.url}${PATH}`, { image: images.url('/portrait.jpg'), width: '2000', height: '10', key: k.key });
    expect(q.status).toBe(400);
    expect(q.json).toMatchObject(envelope('BadArgument'));
    expect(api.api.credits.chargedCount(k.id)).toBe(0);
    expect(api.api.keys.get(k.id).balanceMicrocents).toBe(1_000_000);
  });

  it('400 InvalidImageUrl / InvalidImageFormat for bad images, refunded', async () => {
    const k = api.api.keys.create({ name: 'bad-images', tier: 'basic', creditMicrocents: 1_000_000 });
    const size = { width: 10, height: 10 };
    const cases: Array<[string, string]> = [
      ['data:image/png;base64,iVBORw0KGgo=', 'InvalidImageUrl'],
      [images.url('/missing.jpg'), 'InvalidImageUrl'],
      ['file:///etc/passwd', 'InvalidImageUrl'],
      [images.url('/notes.jpg'), 'InvalidImageFormat'],
    ];
    for (const [image, code] of cases) {
      const r = await postJson(`${api.url}${PATH}`, { image, ...size }, k.key);
      expect(r.status, image).toBe(400);
      expect(r.json, image).toMatchObject(envelope(code));
    }
    expect(api.api.credits.chargedCount(k.id)).toBe(0);
    expect(api.api.keys.get(k.id).balanceMicrocents).toBe(1_000_000);
  });

  it('403 TierUnavailable for a free-tier key, 413 PayloadTooLarge for a body over 64 KiB', async () => {
    const k = api.api.keys.create({ name: 'free', tier: 'basic', creditMicrocents: 1_000_000 });
    api.db.prepare("UPDATE api_keys SET tier = 'free' WHERE id = ?").run(k.id);
    const free = await postJson(`${api.url}${PATH}`, { image: images.url('/portrait.jpg'), width: 10, height: 10 }, k.key);
    expect(free.status).toBe(403);
    expect(free.json).toMatchObject(envelope('TierUnavailable'));
    const big = await postJson(
      `${api.url}${PATH}`,
      { image: images.url('/portrait.jpg'), width: 10, height: 10, pad: 'x'.repeat(70_000) },
      k.key,
    );
    expect(big.status).toBe(413);
    expect(big.json).toMatchObject(envelope('PayloadTooLarge'));
    expect(api.api.credits.chargedCount(k.id)).toBe(0);
  });

  it('402 InsufficientCredit under 0.09¢; 415 for uploads; 400 for malformed JSON', async () => {
    const k = api.api.keys.create({ name: 'poor', tier: 'basic', creditMicrocents: 89_999 });
    const poor = await postJson(`${api.url}${PATH}`, { image: images.url('/portrait.jpg'), width: 10, height: 10 }, k.key);
    expect(poor.status).toBe(402);
    expect(poor.json).toMatchObject(envelope('InsufficientCredit'));
    const upload = await call(`${api.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', key: k.key },
      body: 'xx',
    });
    expect(upload.status).toBe(415);
    expect(upload.json).toMatchObject(envelope('UnsupportedMediaType'));
    const broken = await call(`${api.url}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', key: k.key },
      body: '{"image":',
    });
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject(envelope('BadArgument'));
    expect(api.api.keys.get(k.id).balanceMicrocents).toBe(89_999);
  });
});

describe('thumbnail route: rate limits', () => {
  it('takes a slot per admitted call and answers 429 with Retry-After past the bound', async () => {
    const db = createTestDb();
    const services = createApiServices({
      db,
      operations: ops,
      nowMs: () => Date.UTC(2026, 0, 1, 12, 0, 30),
      limits: () => ({ minute: 2, day: 100, month: 1000 }),
    });
    const app = await createHttpServer({ api: services });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const url = `${serverUrl(app, false)}${PATH}`;
      const k = services.keys.create({ name: 'limited', tier: 'basic', creditMicrocents: 1_000_000 });
      const body = { image: images.url('/portrait.jpg'), width: 16, height: 16 };
      const post = { method: 'POST' as const, headers: { 'content-type': 'application/json', key: k.key }, body: JSON.stringify(body) };
      const statuses = [];
      for (let i = 0; i < 2; i++) statuses.push((await fetchBytes(url, post)).status);
      const refused = await postJson(url, body, k.key);
      expect([...statuses, refused.status]).toEqual([200, 200, 429]);
      expect(refused.headers['retry-after']).toBe('30');
      expect(refused.json).toMatchObject(envelope('TooManyRequests'));
      expect(services.credits.chargedCount(k.id)).toBe(2);
    } finally {
      await app.close();
      db.close();
    }
  });
});
