import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core';
import { createRemoteClient, createRemoteProcessor, type RemoteClient } from '../../../src-main/services/api';
import type { FetchedImage } from '../../../src-main/jobs';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { realOperations, startApi, type ApiHarness } from '../http/harness';

let images: FixtureServer;
let api: ApiHarness;
let key: string;
// The same real services on both sides: called directly (local) and through the server (remote).
const local = realOperations();
const served = realOperations();
/** analyze results equal up to the per-call request id. */
const sansId = (d: { requestId?: string }): object => ({ ...d, requestId: undefined });
const clients: RemoteClient[] = [];
const client = (o: Partial<Parameters<typeof createRemoteClient>[0]> = {}): RemoteClient => {
  const c = createRemoteClient({ baseUrl: api.url, key, retryBaseDelayMs: 10, ...o });
  clients.push(c);
  return c;
};

beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/noface.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
  images.route('/family.jpg', { file: fixture('family_six_faces.jpg'), headers: { 'content-type': 'image/jpeg' } });
  api = await startApi({ operations: served });
  key = api.api.keys.create({ name: 'remote', tier: 'pro' }).key;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await api.close();
  await Promise.all([local.close(), served.close()]);
  await images.close();
});

const rejectsWith = async (p: Promise<unknown>, code: string): Promise<AppError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
};

describe('remote backend against picscan’s own server on loopback', () => {
  for (const method of ['GET', 'POST'] as const) {
    it(`${method}: the round trip equals the local result for the same image`, async () => {
      const c = client({ method });
      const image = images.url('/family.jpg');
      for (const req of [{ image }, { image, features: ['Tags' as const, 'Faces' as const, 'Color' as const] }]) {
        const remote = await c.analyze(req);
        expect(sansId(remote)).toEqual(sansId(await local.analyze(req)));
        expect(remote.requestId).toMatch(/^[0-9a-f-]{36}$/);
      }
      const detect = { image, minHeadScale: 0.015, selector: ['FRONTAL' as const] };
      const remote = await c.detect(detect);
      expect(remote).toEqual(await local.detect(detect));
      expect('images' in remote && remote.images[0]!.faces.length).toBeGreaterThan(2);
      const none = { ...detect, image: images.url('/noface.jpg') };
      expect(await c.detect(none)).toEqual(await local.detect(none));
      expect(await c.detect(none)).toMatchObject({ Errors: [{ ErrCode: 5002 }] });
    });
  }

  it('returns typed errors: bad key, bad feature, unreachable image, no credit', async () => {
    await rejectsWith(client({ key: 'psk_wrong' }).analyze({ image: images.url('/noface.jpg') }), 'unauthorized');
    await rejectsWith(
      client({ key: 'psk_wrong' }).detect({ image: images.url('/noface.jpg'), minHeadScale: 0.015, selector: ['FRONTAL'] }),
      'unauthorized',
    );
    await rejectsWith(client().analyze({ image: images.url('/missing.jpg') }), 'invalid-image-url');
    expect(await client().detect({ image: images.url('/missing.jpg'), minHeadScale: 0.015, selector: ['FRONTAL'] })).toMatchObject({
      Errors: [{ ErrCode: 5001 }],
    });
    const poor = api.api.keys.create({ name: 'poor', tier: 'basic', creditMicrocents: 1 }).key;
    await rejectsWith(client({ key: poor }).analyze({ image: images.url('/noface.jpg') }), 'insufficient-credit');
  });

  it('works as the batch ImageProcessor for remote backends', async () => {
    const processor = createRemoteProcessor(client());
    const item = { source: images.url('/family.jpg') } as FetchedImage;
    const signal = new AbortController().signal;
    const analyzed = await processor.process(item, { kind: 'analyze', features: ['Faces'], details: [] }, signal);
    expect(analyzed.kind === 'analyze' && sansId(analyzed.data)).toEqual(
      sansId(await local.analyze({ image: item.source, features: ['Faces'] })),
    );
    expect(await processor.process(item, { kind: 'detect', minHeadScale: 0.015, selector: ['FRONTAL'] }, signal)).toMatchObject({
      kind: 'detect',
      response: { images: [{ file: 'family.jpg' }] },
    });
    await rejectsWith(
      processor.process({ source: '/tmp/a.jpg' } as FetchedImage, { kind: 'analyze', features: [], details: [] }, signal),
      'invalid-input',
    );
  });
});

describe('remote retries', () => {
  const envelope = {
    query: 'analyze',
    response: 'success',
    status: true,
    classifier: [],
    transaction: { Id: 't', Method: 'credit' },
    trace_id: 'x',
    data: { requestId: 'r', metadata: { width: 1, height: 1, format: 'Png' } },
  };

  it('retries 429 and 5xx, honouring Retry-After', async () => {
    const cloud = await startFixtureServer();
    cloud.route('/ai/vision/analyze', [
      { status: 429, headers: { 'retry-after': '1', 'content-type': 'application/json' }, body: '{}' },
      { status: 503 },
      { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(envelope) },
    ]);
    const started = Date.now();
    const data = await createRemoteClient({ baseUrl: cloud.origin, key: 'k', retryBaseDelayMs: 10 }).analyze({
      image: 'https://example.com/a.png',
    });
    expect(data).toEqual(envelope.data);
    expect(cloud.hits('/ai/vision/analyze')).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(cloud.requests[0]!.headers.key).toBe('k');
    await cloud.close();
  });

  it('gives up after maxRetries, and at once when Retry-After exceeds the cap', async () => {
    const cloud = await startFixtureServer();
    cloud.route('/ai/vision/analyze', { status: 502 });
    await rejectsWith(
      createRemoteClient({ baseUrl: cloud.origin, key: 'k', maxRetries: 2, retryBaseDelayMs: 5 }).analyze({ image: 'https://e.com/a.png' }),
      'remote-failed',
    );
    expect(cloud.hits('/ai/vision/analyze')).toBe(3);
    cloud.route('/ai/faces/detect', { status: 429, headers: { 'retry-after': '3600' } });
    await rejectsWith(
      createRemoteClient({ baseUrl: cloud.origin, key: 'k', maxRetryDelayMs: 5_000 }).detect({
        image: 'https://e.com/a.png',
        minHeadScale: 0.015,
        selector: ['FRONTAL'],
      }),
      'rate-limited',
    );
    expect(cloud.hits('/ai/faces/detect')).toBe(1);
    await cloud.close();
  });

  it('sends GET parameters and the key in the query string', async () => {
    const cloud = await startFixtureServer();
    let seen = '';
    cloud.route('/ai/faces/detect', (req, res) => {
      seen = req.url ?? '';
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"images":[]}');
    });
    await createRemoteClient({ baseUrl: cloud.origin + '/', key: 'k1', method: 'GET' }).detect({
      image: 'https://e.com/a.png',
      minHeadScale: 0.2,
      selector: ['ROLL'],
    });
    expect(Object.fromEntries(new URL(seen, 'http://x').searchParams)).toEqual({
      image: 'https://e.com/a.png',
      minHeadScale: '0.2',
      selector: 'ROLL',
      key: 'k1',
    });
    await cloud.close();
  });
});
