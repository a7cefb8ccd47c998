import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src-main/core';
import { createHttpServer, serverUrl } from '../../../../src-main/http';
import { bridgeRoutes, createApiHandlers, createEventHub } from '../../../../src-main/http/bridge';
import { createApiServices } from '../../../../src-main/services/api';
import { WEB_INVOKE_BODY_MAX_BYTES } from '../../../../src-main/shared/contract';
import { createTestDb } from '../../../helpers/db';
import { fakeDeps } from '../../ipc/fake-deps';
import { intakeOperations } from '../harness';

// `picscan serve` as composed for web mode (the API server with the bridge as extra routes), on
// loopback. A body over the invoke route's limit is declared by its Content-Length and refused
// before it is read, so the test sends a few bytes of it and never allocates the limit.

const TOKEN = 'test-token-0123456789';
let app: FastifyInstance;
let url: string;
const db = createTestDb();

beforeAll(async () => {
  app = await createHttpServer({
    api: createApiServices({ db, operations: intakeOperations() }),
    extraRoutes: [
      bridgeRoutes({
        handlers: createApiHandlers(fakeDeps()),
        events: createEventHub(),
        token: TOKEN,
        rendererDir: null,
        logger: silentLogger,
      }),
    ],
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = serverUrl(app, false);
});
afterAll(async () => {
  await app?.close();
  db.close();
});

/**
 * POSTs to `path` declaring a body of `declared` bytes, sends only its first bytes, and reads the
 * reply (which the server gives without waiting for the rest); then drops the connection.
 */
function postDeclared(path: string, declared: number, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: hostname,
      port: Number(port),
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', 'content-length': String(declared), ...headers },
    });
    req.on('error', () => undefined); // the socket is destroyed below, mid-body
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        req.destroy();
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
    req.write('{"req":{"list":{"text":"https://example.com/a.jpg\\n');
  });
}

const OVER = WEB_INVOKE_BODY_MAX_BYTES + 1;
const invokeHeaders = { 'x-picscan-token': TOKEN };

describe('web mode: a request body over the invoke route limit', () => {
  it('batches:create says the URL list is too large for web mode, how large it may be, and what to do instead', async () => {
    const res = await postDeclared('/api/invoke/batches:create', OVER, invokeHeaders);
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ ok: false, error: { code: 'payload-too-large', message: expect.any(String) } });
    const { message } = (res.json as { error: { message: string } }).error;
    expect(message).toMatch(/URL list is too large for web mode/);
    expect(message).toContain('256 MiB');
    expect(message).toMatch(/split/i);
    expect(message).toContain('picscan batch <file>');
    expect(message).toMatch(/desktop app/);
    expect(message).not.toMatch(/image/);
  });

  it('any other channel says the request is too large, with the limit', async () => {
    const res = await postDeclared('/api/invoke/galleries:add', 300 * 1024 * 1024, invokeHeaders);
    expect(res.status).toBe(413);
    expect(res.json).toEqual({
      ok: false,
      error: { code: 'payload-too-large', message: 'The request to galleries:add is too large for web mode (limit 256 MiB).' },
    });
  });

  it('a body up to the limit is read as before (a small one here), and the token is checked first', async () => {
    const ok = await fetch(`${url}/api/invoke/app:info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...invokeHeaders },
      body: '{}',
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, value: { mode: 'web' } });
    expect((await postDeclared('/api/invoke/batches:create', OVER)).status).toBe(401);
  });

  it("passes the invoke route's other errors on to the server's handler, as before", async () => {
    const res = await fetch(`${url}/api/invoke/app:info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...invokeHeaders },
      body: '{"req":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'BadArgument', message: 'The body is not valid JSON.' } });
  });

  it("leaves the image API's own message alone", async () => {
    const res = await postDeclared('/ai/vision/analyze', 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({
      error: {
        code: 'PayloadTooLarge',
        message: 'The request body is too large: send only the JSON parameters; the image goes by URL in `image`.',
      },
    });
  });
});

describe('web mode on the API server: wrong method or path', () => {
  // The bridge's /api answers in its own envelope; the image API's paths keep theirs.
  const get = async (path: string, method = 'GET') => {
    const res = await fetch(url + path, { method, headers: { 'x-picscan-token': TOKEN } });
    return { status: res.status, allow: res.headers.get('allow'), json: (await res.json()) as Record<string, unknown> };
  };

  it('a bridge path with another method is 405 with Allow, another /api path 404 naming the bridge routes', async () => {
    expect(await get('/api/invoke/app:info')).toMatchObject({
      status: 405,
      allow: 'POST',
      json: { ok: false, error: { code: 'not-found' } },
    });
    const unknown = await get('/api/nothing');
    expect(unknown).toMatchObject({ status: 404, json: { ok: false } });
    expect(JSON.stringify(unknown.json)).toContain('POST /api/invoke/:channel');
    const api = await get('/ai/nothing');
    expect(api.status).toBe(404);
    expect(JSON.stringify(api.json)).toContain('/ai/vision/analyze');
    expect(await get('/ai/vision/analyze', 'PUT')).toMatchObject({ status: 405, allow: 'GET, POST' });
  });

  it('a body the parser refuses does not hide that the path or method is not served', async () => {
    // The body is parsed before routing: these were the image API's 400 "The body is empty …".
    for (const [method, path, body, type, status] of [
      ['PUT', '/api/export', '', 'application/json', 405],
      ['DELETE', '/api/invoke/app:info', '{"req":', 'application/json', 405],
      ['POST', '/api/nothing', '', 'application/json', 404],
      ['POST', '/api/nothing', 'x=1', 'application/x-www-form-urlencoded', 404],
    ] as const) {
      const res = await fetch(url + path, { method, headers: { 'x-picscan-token': TOKEN, 'content-type': type }, body });
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(await res.json(), `${method} ${path}`).toMatchObject({ ok: false, error: { code: 'not-found' } });
    }
    // Without the token nothing is told.
    const res = await fetch(url + '/api/export', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '' });
    expect(res.status).toBe(401);
  });
});
