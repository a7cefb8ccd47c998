import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core';
import { createRemoteClient, type RemoteClient, type RemoteClientOptions } from '../../../src-main/services/api';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';

// A remote service that misbehaves: the client must answer with a clear error, in bounded time
// and memory, and never repeat the key it was given.
const KEY = 'psk_remoteReplies0123456789abcdefghijklmnopqrs';
const detectReq = { image: 'https://example.com/a.jpg', minHeadScale: 0.015, selector: ['FRONTAL' as const] };

let cloud: FixtureServer;
const clients: RemoteClient[] = [];
const client = (o: Partial<RemoteClientOptions> = {}): RemoteClient => {
  const c = createRemoteClient({ baseUrl: cloud.origin, key: KEY, maxRetries: 0, retryBaseDelayMs: 5, ...o });
  clients.push(c);
  return c;
};

beforeAll(async () => {
  cloud = await startFixtureServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await cloud.close();
});

const failure = async (p: Promise<unknown>): Promise<AppError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('remote client against a misbehaving service', () => {
  it('refuses a reply body over the size limit without reading it all', async () => {
    let sent = 0;
    cloud.route('/big/ai/vision/analyze', (_req, res) => {
      // 256 MiB of JSON whitespace, chunked (no Content-Length), as fast as the client reads.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1 << 20, 0x20);
      const write = (): void => {
        while (sent < 256 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        if (!res.destroyed) res.end('{}');
      };
      write();
    });
    const err = await failure(client({ baseUrl: cloud.url('/big') }).analyze({ image: 'https://example.com/a.jpg' }));
    expect(err.code).toBe('remote-failed');
    expect(err.message).toMatch(/larger than 4 MB/);
    expect(sent).toBeLessThan(64);
  });

  it('gives up on a reply that trickles past the per-attempt time limit', async () => {
    cloud.route('/slow/ai/faces/detect', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 100);
    });
    const started = Date.now();
    const err = await failure(client({ baseUrl: cloud.url('/slow'), timeoutMs: 1_000 }).detect(detectReq));
    expect(err.code).toBe('remote-failed');
    expect(err.message).toMatch(/no complete reply within 1 s/);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 15_000);

  it('names a reply that is not the API’s (HTML, broken JSON, a redirect) instead of blaming the parameters', async () => {
    const root = cloud.url('/odd');
    cloud.route('/odd/ai/vision/analyze', [
      { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>captive portal</html>' },
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{"status": true, "data": ' },
      { status: 302, redirectTo: '/elsewhere' },
      { status: 404 },
    ]);
    const c = client({ baseUrl: root });
    const html = await failure(c.analyze({ image: 'https://example.com/a.jpg' }));
    expect([html.code, html.message]).toEqual([
      'remote-failed',
      `The remote service at ${root} answered HTTP 200 with text/html that is not valid JSON: check the base URL.`,
    ]);
    const broken = await failure(c.analyze({ image: 'https://example.com/a.jpg' }));
    expect([broken.code, broken.message]).toEqual([
      'remote-failed',
      `The remote service at ${root} answered HTTP 200 with application/json that is not valid JSON: check the base URL.`,
    ]);
    const redirect = await failure(c.analyze({ image: 'https://example.com/a.jpg' }));
    expect([redirect.code, redirect.message]).toEqual([
      'remote-failed',
      `The remote service at ${root} answered HTTP 302 (a redirect, which is not followed): check the base URL.`,
    ]);
    const notFound = await failure(c.analyze({ image: 'https://example.com/a.jpg' }));
    expect([notFound.code, notFound.message]).toEqual([
      'remote-failed',
      `The remote service at ${root} answered HTTP 404 with an empty body: check the base URL.`,
    ]);
    cloud.route('/odd/ai/faces/detect', { status: 200, headers: { 'content-type': 'application/json' }, body: 'null' });
    const empty = await failure(c.detect(detectReq));
    expect([empty.code, empty.message]).toEqual([
      'remote-failed',
      `The remote service at ${root} answered HTTP 200 without a result of the API: check the base URL.`,
    ]);
  });

  it('reads shared Azure codes and ErrCodes as the general error, not the first code that shares them', async () => {
    const envelope = (code: string, message: string): string =>
      JSON.stringify({ query: 'analyze', status: false, error: { code, message } });
    const json = { 'content-type': 'application/json' };
    cloud.route('/codes/ai/vision/analyze', [
      { status: 500, headers: json, body: envelope('FailedToProcess', 'The model failed.') },
      { status: 400, headers: json, body: envelope('BadArgument', 'The required parameter `image` is missing.') },
    ]);
    cloud.route('/codes/ai/faces/detect', [
      { status: 500, headers: json, body: JSON.stringify({ Errors: [{ Message: 'internal', ErrCode: 3001 }] }) },
      { status: 400, headers: json, body: JSON.stringify({ Errors: [{ Message: 'an invalid parameter was sent', ErrCode: 1003 }] }) },
    ]);
    const c = client({ baseUrl: cloud.url('/codes') });
    expect((await failure(c.analyze({ image: 'https://example.com/a.jpg' }))).code).toBe('remote-failed'); // was no-faces
    expect((await failure(c.analyze({ image: 'https://example.com/a.jpg' }))).code).toBe('invalid-parameter'); // was malformed-json
    expect((await failure(c.detect(detectReq))).code).toBe('remote-failed'); // was model-missing
    expect((await failure(c.detect(detectReq))).code).toBe('invalid-parameter'); // was malformed-json
  });

  for (const method of ['GET', 'POST'] as const) {
    it(`${method}: never repeats the key a service echoes in its messages`, async () => {
      const echo = (text: string) => (req: { url?: string; headers: Record<string, unknown> }) =>
        text.replace('$KEY', String(req.headers.key ?? new URL(req.url ?? '/', 'http://x').searchParams.get('key')));
      cloud.route(`/echo-${method}/ai/vision/analyze`, (req, res) => {
        const message = echo('The key $KEY has been revoked.')(req);
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: false, error: { code: 'Unauthorized', message } }));
      });
      cloud.route(`/echo-${method}/ai/faces/detect`, (req, res) => {
        const Message = echo('an invalid image URL was sent with key $KEY')(req);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Errors: [{ Message, ErrCode: 5001 }] }));
      });
      const c = client({ baseUrl: cloud.url(`/echo-${method}`), method });
      const err = await failure(c.analyze({ image: 'https://example.com/a.jpg' }));
      expect(err.code).toBe('unauthorized');
      expect(err.message).toBe('The key [redacted] has been revoked.');
      const body = await c.detect(detectReq);
      expect(body).toEqual({ Errors: [{ Message: 'an invalid image URL was sent with key [redacted]', ErrCode: 5001 }] });
    });
  }

  it('refuses a result whose fields break the API’s types instead of failing later or storing it', async () => {
    const json = { 'content-type': 'application/json' };
    const root = cloud.url('/garbled');
    cloud.route('/garbled/ai/vision/analyze', {
      headers: json,
      body: JSON.stringify({ status: true, data: { requestId: 'r', tags: 'cat', metadata: { width: 1, height: 1, format: 'Jpeg' } } }),
    });
    cloud.route('/garbled/ai/faces/detect', { headers: json, body: JSON.stringify({ images: [{ status: 'Complete', faces: 'none' }] }) });
    const c = client({ baseUrl: root });
    const analyze = await failure(c.analyze({ image: 'https://example.com/a.jpg' }));
    expect([analyze.code, analyze.message]).toEqual([
      'remote-failed',
      `The remote service at ${root} answered HTTP 200 with a result that does not follow the API (data.tags: Invalid input: expected array, received string).`,
    ]);
    const detect = await failure(c.detect(detectReq));
    expect([detect.code, detect.message]).toEqual([
      'remote-failed',
      `The remote service at ${root} answered HTTP 200 with a result that does not follow the API (images.0.faces: Invalid input: expected array, received string).`,
    ]);
    const typed = client({ baseUrl: cloud.url('/typed') });
    cloud.route('/typed/ai/faces/detect', [
      { headers: json, body: JSON.stringify({ Errors: [null] }) },
      { status: 400, headers: json, body: JSON.stringify({ Errors: [{ Message: 7, ErrCode: 1003 }] }) },
    ]);
    for (const where of [
      'Errors.0: Invalid input: expected object, received null',
      'Errors.0.Message: Invalid input: expected string, received number',
    ]) {
      const err = await failure(typed.detect(detectReq));
      expect([err.code, err.message]).toEqual(['remote-failed', expect.stringContaining(`does not follow the API (${where}).`)]);
    }
    cloud.route('/typed/ai/vision/analyze', {
      status: 400,
      headers: json,
      body: JSON.stringify({ status: false, error: { code: 'BadArgument', message: 7 } }),
    });
    const numeric = await failure(typed.analyze({ image: 'https://example.com/a.jpg' }));
    expect([numeric.code, numeric.message]).toEqual(['invalid-parameter', 'The remote service answered HTTP 400.']);
    // Other fields, other enum values and absent optional parts still pass (spec §2.4 shows glasses "Yes").
    const lenient = {
      images: [
        {
          status: 'Complete',
          width: 9,
          height: 9,
          file: 'a.jpg',
          faces: [{ topLeftX: 1, topLeftY: 1, width: 2, height: 2, attributes: { glasses: 'Yes' } }],
        },
      ],
    };
    cloud.route('/garbled/ai/faces/detect', { headers: json, body: JSON.stringify(lenient) });
    expect(await c.detect(detectReq)).toEqual(lenient);
  });

  it('never repeats a password of the base URL in its messages', async () => {
    cloud.route('/auth/ai/vision/analyze', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html></html>' });
    const base = cloud.url('/auth').replace('http://', 'http://robot:s3cretPass@');
    const err = await failure(client({ baseUrl: base }).analyze({ image: 'https://example.com/a.jpg' }));
    expect(err.code).toBe('remote-failed');
    expect(err.message).not.toContain('s3cretPass');
    expect(err.message).toContain(
      `The remote service at ${cloud.url('/auth').replace('http://', 'http://robot:[redacted]@')} answered HTTP 200`,
    );
  });
});
