/**
 * The OpenAPI 3.1 document: valid against the OpenAPI schema, covers every route, and real
 * responses of every route (successes and errors, on the real models) validate against it.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import OpenAPIBackend from 'openapi-backend';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpServer } from '../../../src-main/http';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { realOperations, startApi, type ApiHarness } from './harness';
import { rawExchange } from './raw-exchange';

let images: FixtureServer;
let ops: ReturnType<typeof realOperations>;
let api: ApiHarness;
let doc: Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };
let backend: OpenAPIBackend;
let key: string;
let poorKey: string;

beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/portrait.jpg', { file: fixture('obama_portrait.jpg'), headers: { 'content-type': 'image/jpeg' } });
  images.route('/clipart.png', { file: fixture('cheese_clipart.png'), headers: { 'content-type': 'image/png' } });
  images.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
  ops = realOperations();
  api = await startApi({ operations: ops });
  key = api.api.keys.create({ name: 'doc', tier: 'pro', creditMicrocents: 100_000_000 }).key;
  poorKey = api.api.keys.create({ name: 'poor', tier: 'basic', creditMicrocents: 1_000 }).key;
  const res = await request(`${api.url}/openapi.json`);
  expect(res.statusCode).toBe(200);
  doc = (await res.body.json()) as typeof doc;
  // quick: openapi-backend checks definitions against OpenAPI 3.0 only; the 3.1 check is the test below.
  backend = new OpenAPIBackend({ definition: structuredClone(doc) as never, quick: true });
  await backend.init();
});
afterAll(async () => {
  await api?.close();
  await ops?.close();
  await images?.close();
});

interface Exchange {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Headers the API itself sets (trace, charge, when to retry). */
const API_HEADERS = ['x-trace-id', 'x-transaction-id', 'retry-after'];

/** Sends a request and validates status, content type, API headers and body against the document. */
async function validated(x: Exchange): Promise<{ status: number; contentType: string; body: unknown }> {
  const qs = x.query ? `?${new URLSearchParams(x.query).toString()}` : '';
  const res = await request(`${api.url}${x.path}${qs}`, {
    method: x.method,
    headers: { ...(x.body !== undefined && { 'content-type': 'application/json' }), ...x.headers },
    body: x.body === undefined ? undefined : JSON.stringify(x.body),
  });
  const contentType = String(res.headers['content-type']).split(';')[0]!;
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const operation = backend.matchOperation({ method: x.method.toLowerCase(), path: x.path, headers: {} });
  expect(operation, `${x.method} ${x.path} is in the document`).toBeDefined();
  const declared = (operation!.responses as Record<string, { content: Record<string, unknown> }>)[String(res.statusCode)];
  expect(declared, `${x.method} ${x.path} → ${res.statusCode} is declared`).toBeDefined();
  expect(Object.keys(declared!.content), `${x.method} ${x.path} → ${res.statusCode} ${contentType}`).toContain(contentType);
  // The API's own headers are declared on the response that carries them (client generators expose only those).
  const declaredHeaders = Object.keys((declared as { headers?: Record<string, unknown> }).headers ?? {}).map((h) => h.toLowerCase());
  for (const header of API_HEADERS.filter((h) => res.headers[h] !== undefined)) {
    expect(declaredHeaders, `${x.method} ${x.path} → ${res.statusCode} declares ${header}`).toContain(header);
  }
  if (contentType !== 'application/json') return { status: res.statusCode, contentType, body: bytes };
  const body = JSON.parse(bytes.toString('utf8')) as unknown;
  const result = backend.validateResponse(body, operation!, res.statusCode);
  expect(result.errors ?? [], `${x.method} ${x.path} → ${res.statusCode}: ${JSON.stringify(body).slice(0, 300)}`).toEqual([]);
  return { status: res.statusCode, contentType, body };
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every API route and method, each with its error statuses', () => {
    const routes = api.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .filter((l) => /\/ai\//.test(l));
    expect(routes.length).toBeGreaterThan(0);
    for (const path of ['/ai/vision/analyze', '/ai/faces/detect', '/ai/faces/train', '/ai/vision/thumbnail']) {
      for (const method of ['get', 'post']) {
        const op = doc.paths[path]?.[method] as { responses: Record<string, unknown> } | undefined;
        expect(op, `${method} ${path}`).toBeDefined();
        expect(Object.keys(op!.responses).sort()).toEqual([
          '200',
          '400',
          '401',
          '402',
          '403',
          '408',
          '413',
          '415',
          '417',
          '429',
          '431',
          '500',
          '503',
        ]);
      }
    }
    expect(doc.paths['/openapi.json']?.get).toBeDefined();
  });

  it('leaves out routes that are not API (the UI bridge, the reference page)', async () => {
    const app = await createHttpServer({
      api: api.api,
      extraRoutes: [async (scope) => void scope.get('/api/invoke/:channel', async () => ({}))],
    });
    const paths = Object.keys(((await app.inject({ method: 'GET', url: '/openapi.json' })).json() as typeof doc).paths);
    await app.close();
    expect(paths.sort()).toEqual(['/ai/faces/detect', '/ai/faces/train', '/ai/vision/analyze', '/ai/vision/thumbnail', '/openapi.json']);
  });

  it('serves a readable reference page without the internet', async () => {
    const res = await request(`${api.url}/docs`);
    expect(res.statusCode).toBe(200);
    const html = await res.body.text();
    expect(html).toContain('swagger-ui');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[a-z0-9.-]+\//i);
  });
});

describe('real responses validate against the document', () => {
  it('analyze: success (GET and POST) and errors', async () => {
    const ok = await validated({ method: 'GET', path: '/ai/vision/analyze', query: { image: images.url('/cat.jpg'), key } });
    expect(ok.status).toBe(200);
    await validated({
      method: 'POST',
      path: '/ai/vision/analyze',
      body: { image: images.url('/portrait.jpg'), features: 'Faces,Color,Tags' },
      headers: { key },
    });
    expect((await validated({ method: 'GET', path: '/ai/vision/analyze', query: { image: images.url('/cat.jpg') } })).status).toBe(401);
    expect(
      (
        await validated({
          method: 'POST',
          path: '/ai/vision/analyze',
          body: { image: images.url('/cat.jpg'), features: 'Nope' },
          headers: { key },
        })
      ).status,
    ).toBe(400);
    expect(
      (await validated({ method: 'POST', path: '/ai/vision/analyze', body: { image: images.url('/cat.jpg') }, headers: { key: poorKey } }))
        .status,
    ).toBe(402);
    expect(
      (await validated({ method: 'POST', path: '/ai/vision/analyze', body: { image: images.url('/missing.jpg') }, headers: { key } }))
        .status,
    ).toBe(400);
  });

  it('detect and train: faces, Kairos errors with HTTP 200, refusals', async () => {
    const ok = await validated({
      method: 'POST',
      path: '/ai/faces/detect',
      body: { image: images.url('/portrait.jpg') },
      headers: { key },
    });
    expect(ok.body).toMatchObject({ images: [{ status: 'Complete' }] });
    const none = await validated({ method: 'GET', path: '/ai/faces/train', query: { image: images.url('/cat.jpg'), key } });
    expect(none.body).toMatchObject({ Errors: [{ ErrCode: 5002 }] });
    expect(
      (await validated({ method: 'GET', path: '/ai/faces/detect', query: { image: images.url('/cat.jpg'), minHeadScale: '9', key } }))
        .status,
    ).toBe(200);
    expect((await validated({ method: 'POST', path: '/ai/faces/train', body: { image: images.url('/cat.jpg') } })).status).toBe(401);
  });

  it('thumbnail: image bytes of the declared types, and errors', async () => {
    const jpeg = await validated({
      method: 'GET',
      path: '/ai/vision/thumbnail',
      query: { image: images.url('/portrait.jpg'), width: '64', height: '48', key },
    });
    expect([jpeg.status, jpeg.contentType]).toEqual([200, 'image/jpeg']);
    const png = await validated({
      method: 'POST',
      path: '/ai/vision/thumbnail',
      body: { image: images.url('/clipart.png'), width: 32, height: 32, smartCropping: true },
      headers: { key },
    });
    expect([png.status, png.contentType]).toEqual([200, 'image/png']);
    expect(
      (
        await validated({
          method: 'POST',
          path: '/ai/vision/thumbnail',
          body: { image: images.url('/cat.jpg'), width: 0, height: 5 },
          headers: { key },
        })
      ).status,
    ).toBe(400);
    expect(
      (await validated({ method: 'GET', path: '/ai/vision/thumbnail', query: { image: images.url('/cat.jpg'), width: '5', height: '5' } }))
        .status,
    ).toBe(401);
    expect(
      (
        await validated({
          method: 'POST',
          path: '/ai/vision/thumbnail',
          body: { image: images.url('/cat.jpg'), width: 5, height: 5 },
          headers: { key: poorKey },
        })
      ).status,
    ).toBe(402);
  });

  it('transport errors (415, malformed JSON) on every operation', async () => {
    for (const path of ['/ai/vision/analyze', '/ai/faces/detect', '/ai/vision/thumbnail']) {
      const res = await request(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', key },
        body: 'xx',
      });
      const body = (await res.body.json()) as unknown;
      expect(res.statusCode).toBe(415);
      expect(backend.validateResponse(body, backend.matchOperation({ method: 'post', path, headers: {} })!, 415).errors ?? []).toEqual([]);
      const broken = await validated({ method: 'POST', path, headers: { 'content-type': 'application/json', key }, body: undefined });
      expect(broken.status).toBe(400);
    }
  });

  it('connection-level refusals (unparsable HTTP, oversized head, unmet Expect, timeout) on every operation', async () => {
    // What Node refuses before a route runs still answers in the operation's shape: the document must say so.
    const slow = await startApi({ operations: ops, timeouts: { headersTimeoutMs: 500, requestTimeoutMs: 1_000, checkIntervalMs: 100 } });
    try {
      for (const path of ['/ai/vision/analyze', '/ai/faces/detect', '/ai/vision/thumbnail']) {
        const head = (extra: string): string => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nkey: ${key}\r\n${extra}`;
        const cases = [
          { url: api.url, raw: head('Content-Length: ten\r\n\r\n'), status: 400 },
          { url: api.url, raw: head(`X-Pad: ${'a'.repeat(20_000)}\r\n\r\n`), status: 431 },
          { url: api.url, raw: head('Expect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'), status: 417 },
          // The body never arrives in full: the request timeout answers.
          { url: slow.url, raw: head('Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"im'), status: 408 },
        ];
        for (const c of cases) {
          const res = await rawExchange(c.url, c.raw);
          expect(res.status, `${path} → ${res.status}`).toBe(c.status);
          const operation = backend.matchOperation({ method: 'post', path, headers: {} })!;
          const declared = (operation.responses as Record<string, { content: Record<string, unknown> }>)[String(res.status)];
          expect(declared, `${path} → ${res.status} is declared`).toBeDefined();
          expect(Object.keys(declared!.content)).toContain(res.headers['content-type']?.split(';')[0]?.trim());
          const result = backend.validateResponse(JSON.parse(res.text), operation, res.status);
          expect(result.errors ?? [], `${path} → ${res.status}: ${res.text.slice(0, 300)}`).toEqual([]);
        }
      }
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('requests the server accepts are valid against the document (key in either place, POST parameters in the query)', async () => {
    const thumb = { image: images.url('/portrait.jpg'), width: '8', height: '8' };
    const accepted: Array<{
      method: 'get' | 'post';
      path: string;
      query: Record<string, string>;
      headers: Record<string, string>;
      body?: unknown;
    }> = [
      // GET with the key in header `key`, as the POST form sends it.
      { method: 'get', path: '/ai/vision/thumbnail', query: thumb, headers: { key } },
      // POST without a body: the query string carries the parameters.
      { method: 'post', path: '/ai/vision/thumbnail', query: thumb, headers: { key } },
      // POST whose body holds some parameters and the query the rest (the body is merged over the query).
      { method: 'post', path: '/ai/vision/thumbnail', query: { image: thumb.image }, headers: { key }, body: { width: 8, height: 8 } },
      {
        method: 'post',
        path: '/ai/vision/analyze',
        query: { details: 'Landmarks' },
        headers: { key },
        body: { image: images.url('/cat.jpg'), features: 'Color' },
      },
      {
        method: 'post',
        path: '/ai/faces/detect',
        query: { minHeadScale: '0.1' },
        headers: { key },
        body: { image: images.url('/portrait.jpg') },
      },
    ];
    for (const x of accepted) {
      const qs = new URLSearchParams(x.query).toString();
      const res = await request(`${api.url}${x.path}?${qs}`, {
        method: x.method.toUpperCase() as 'GET' | 'POST',
        headers: { ...x.headers, ...(x.body !== undefined && { 'content-type': 'application/json' }) },
        body: x.body === undefined ? undefined : JSON.stringify(x.body),
      });
      const text = Buffer.from(await res.body.arrayBuffer()).toString('latin1');
      const label = `${x.method} ${x.path}?${Object.keys(x.query).join('&')} ${JSON.stringify(x.body ?? null)}`;
      expect(res.statusCode, label).toBe(200);
      expect(text, label).not.toMatch(/"Errors"|"status":false/);
      const result = backend.validateRequest({ method: x.method, path: x.path, query: x.query, headers: x.headers, body: x.body });
      expect(result.errors ?? [], label).toEqual([]);
      // Declared, not merely tolerated: a client generator offers only what the document lists.
      const op = backend.matchOperation({ method: x.method, path: x.path, headers: {} })!;
      const declared = (op.parameters ?? []) as Array<{ in: string; name: string }>;
      for (const [name, where] of [...Object.keys(x.query).map((n) => [n, 'query']), ...Object.keys(x.headers).map((n) => [n, 'header'])]) {
        expect(
          declared.some((p) => p.in === where && p.name === name),
          `${label}: ${where} parameter ${name} is declared`,
        ).toBe(true);
      }
    }
  }, 120_000);

  it('rate limited: 429 with Retry-After, as declared', async () => {
    const limited = api.api.keys.create({ name: 'limited', tier: 'basic', creditMicrocents: 100_000_000 }).key;
    // The basic tier admits 100 calls a minute; the window may turn over once while this runs.
    let res: Awaited<ReturnType<typeof validated>> | undefined;
    for (let i = 0; i < 250 && res?.status !== 429; i++) {
      res = await validated({
        method: 'GET',
        path: '/ai/vision/thumbnail',
        query: { image: images.url('/cat.jpg'), width: '4', height: '4', key: limited },
      });
    }
    expect(res?.status).toBe(429);
  }, 180_000);

  it('a call arriving while the server shuts down: 503 in the shape of the operation, as declared', async () => {
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    images.route('/held.jpg', async (_req, res) => {
      arrived();
      await released;
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(readFileSync(fixture('cat_chelsea.jpg')));
    });
    const closing = await startApi({ operations: ops });
    const closingKey = closing.api.keys.create({ name: 'closing', tier: 'pro' }).key;
    const { port } = new URL(closing.url);
    const socket = connect(Number(port), '127.0.0.1');
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (out += d));
    socket.on('error', () => undefined);
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const get = (path: string, query: Record<string, string>): string =>
      `GET ${path}?${new URLSearchParams({ ...query, key: closingKey }).toString()} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    socket.write(get('/ai/vision/analyze', { image: images.url('/held.jpg'), features: 'Color' }));
    await held;
    const closed = closing.close();
    // The shutdown has begun once the server stops listening; only then may the first call finish.
    await vi.waitFor(() => expect(closing.app.server.listening).toBe(false), { timeout: 30_000, interval: 20 });
    // A second call on the same kept-alive connection (busy, so not closed as idle), pipelined after the first.
    socket.write(get('/ai/vision/thumbnail', { image: images.url('/cat.jpg'), width: '4', height: '4' }));
    release();
    await ended;
    await closed;
    const replies = out.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(replies.map((r) => Number(r.slice(9, 12)))).toEqual([200, 503]);
    const [head = '', body = ''] = replies[1]!.split('\r\n\r\n');
    expect(head).toMatch(/^x-trace-id: \S+/im);
    expect(/^content-type:\s*([^;\r\n]+)/im.exec(head)?.[1]).toBe('application/json');
    const operation = backend.matchOperation({ method: 'get', path: '/ai/vision/thumbnail', headers: {} })!;
    expect((operation.responses as Record<string, unknown>)['503'], '503 is declared').toBeDefined();
    expect(backend.validateResponse(JSON.parse(body), operation, 503).errors ?? [], body).toEqual([]);
  }, 120_000);

  it('the document itself', async () => {
    expect((await validated({ method: 'GET', path: '/openapi.json' })).status).toBe(200);
  });

  it('rejects bodies that break the document (the checks above can fail)', () => {
    const analyze = backend.matchOperation({ method: 'get', path: '/ai/vision/analyze', headers: {} })!;
    const envelope = { query: 'analyze', response: 'x', status: false, classifier: [], transaction: { Id: '', Method: '' }, trace_id: 't' };
    expect(backend.validateResponse({ ...envelope, error: { code: 'BadArgument', message: 'm' } }, analyze, 400).errors ?? []).toEqual([]);
    expect(backend.validateResponse({ ...envelope, error: { code: 'NoSuchCode', message: 'm' } }, analyze, 400).errors).not.toEqual([]);
    expect(backend.validateResponse({ ...envelope, status: 'false' }, analyze, 400).errors).not.toEqual([]);
    const detect = backend.matchOperation({ method: 'post', path: '/ai/faces/detect', headers: {} })!;
    expect(backend.validateResponse({ Errors: [{ Message: 'm', ErrCode: 4242 }], trace_id: 't' }, detect, 200).errors).not.toEqual([]);
  });
});
