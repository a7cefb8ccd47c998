import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src-main/core';
import { bridgeRoutes, createApiHandlers, createEventHub, type EventHub } from '../../../../src-main/http/bridge';
import { fakeDeps } from '../../ipc/fake-deps';

const TOKEN = 'test-token-0123456789';
let app: FastifyInstance;
let events: EventHub;

async function start(): Promise<FastifyInstance> {
  const dir = mkdtempSync(join(tmpdir(), 'picscan-renderer-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>picscan</title>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, '..', 'secret.txt'), 'secret');
  events = createEventHub();
  app = Fastify();
  await app.register(
    bridgeRoutes({
      handlers: createApiHandlers(fakeDeps()),
      events,
      token: TOKEN,
      rendererDir: dir,
      logger: silentLogger,
      heartbeatMs: 50,
      thumbnails: async (id) => (id === 1 ? { bytes: new Uint8Array([1, 2, 3]), contentType: 'image/webp' } : null),
      exportResults: (filter, format) => Readable.from([`url,status\n${JSON.stringify(filter)},${format}\n`]),
    }),
  );
  return app;
}

afterEach(async () => {
  await app?.close();
});

const host = { host: '127.0.0.1:4321' };
const invoke = (channel: string, req: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/invoke/${channel}`,
    headers: { ...host, 'x-picscan-token': TOKEN, ...headers },
    payload: { req },
  });

describe('web-mode bridge: access checks', () => {
  it('refuses a request without the session token, or with a wrong one', async () => {
    await start();
    const none = await app.inject({ method: 'POST', url: '/api/invoke/app:info', headers: host, payload: {} });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await invoke('app:info', undefined, { 'x-picscan-token': 'nope' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/app/', headers: host })).statusCode).toBe(401);
  });

  it('refuses other origins, cross-site fetches and DNS-rebinding host names', async () => {
    await start();
    expect((await invoke('app:info', undefined, { origin: 'http://evil.example' })).statusCode).toBe(403);
    expect((await invoke('app:info', undefined, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await invoke('app:info', undefined, { host: 'evil.example:4321' })).statusCode).toBe(403);
    expect((await invoke('app:info', undefined, { origin: 'http://127.0.0.1:4321', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(
      200,
    );
  });
});

describe('web-mode bridge: the typed API over HTTP', () => {
  it('answers the Result envelope, parsing input like the IPC side', async () => {
    await start();
    expect((await invoke('app:info', undefined)).json()).toMatchObject({ ok: true, value: { name: 'picscan', mode: 'web' } });
    expect((await invoke('results:page', { filter: { tags: ['cat'] } })).json()).toMatchObject({ ok: true, value: { total: 1 } });
    expect((await invoke('batches:get', { batchId: 7 })).json()).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'There is no batch 7.' },
    });
    expect((await invoke('batches:get', { batchId: 'x' })).json()).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const unknown = await invoke('fs:read', { path: '/etc/passwd' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ ok: false, error: { code: 'not-found' } });
    // The desktop's save dialog is no web-mode action: a typed refusal pointing at the download.
    expect((await invoke('export:save', { filter: {}, format: 'csv' })).json()).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', message: expect.stringMatching(/desktop action.*\/api\/export/) },
    });
  });

  it('serves the renderer at /app/ with a CSP and a per-port session cookie, and nothing outside it', async () => {
    await start();
    const page = await app.inject({ url: `/app/?token=${TOKEN}`, headers: host });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    const pair = cookie.split(';')[0]!;
    const asset = await app.inject({ url: '/app/assets/app.js', headers: { ...host, cookie: pair } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
    const escape = await app.inject({ url: `/app/..%2Fsecret.txt?token=${TOKEN}`, headers: host });
    expect(escape.statusCode).toBe(404);
    expect((await app.inject({ url: `/app?token=${TOKEN}`, headers: host })).headers.location).toBe(`/app/?token=${TOKEN}`);
  });

  it('serves thumbnails and export downloads', async () => {
    await start();
    const thumb = await app.inject({ url: `/api/thumbnails/1?token=${TOKEN}`, headers: host });
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.rawPayload).toEqual(Buffer.from([1, 2, 3]));
    expect((await app.inject({ url: `/api/thumbnails/2?token=${TOKEN}`, headers: host })).statusCode).toBe(404);
    const filter = encodeURIComponent(JSON.stringify({ tags: ['cat'] }));
    const csv = await app.inject({ url: `/api/export?format=csv&filter=${filter}&token=${TOKEN}`, headers: host });
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="picscan-export-.*\.csv"$/);
    expect(csv.body).toBe('url,status\n{"tags":["cat"]},csv\n');
    const bad = await app.inject({
      url: `/api/export?format=csv&filter=${encodeURIComponent('{"maxAdult":7}')}&token=${TOKEN}`,
      headers: host,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('pushes contract events as server-sent events', async () => {
    await start();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/api/events?token=${TOKEN}`);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    await reader.read(); // ": connected"
    events.emit('batches:changed', { batchId: 3 });
    let text = '';
    while (!text.includes('data: {"batchId":3}\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: batches:changed\ndata: {"batchId":3}\n\n'); // heartbeats (": ping") may come first
    // An open event stream does not hold the server when it stops.
    const t0 = Date.now();
    await app.close();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect((await reader.read()).done).toBe(true);
  });
});

describe('web-mode bridge: another method or an unknown path under /api', () => {
  // Before, both were the image API's 404 ("The API has GET and POST /ai/vision/analyze …").
  const call = (method: 'GET' | 'POST' | 'HEAD' | 'DELETE', url: string, headers: Record<string, string> = { 'x-picscan-token': TOKEN }) =>
    app.inject({ method, url, headers: { ...host, ...headers } });

  it('answers 405 with Allow for a bridge path served with another method', async () => {
    await start();
    for (const [method, url, allow] of [
      ['GET', '/api/invoke/app:info', 'POST'],
      ['POST', '/api/thumbnails/1', 'GET'],
      ['HEAD', '/api/export', 'GET'],
      ['DELETE', '/api/events', 'GET'],
    ] as const) {
      const res = await call(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      if (method !== 'HEAD')
        expect(res.json()).toEqual({
          ok: false,
          error: { code: 'not-found', message: `${method} is not served on this path; use ${allow}.` },
        });
    }
  });

  it('answers 404 in the Result envelope naming the bridge routes for any other /api path', async () => {
    await start();
    for (const url of ['/api/nothing', '/api/invoke/', '/api/events/x', '/api/thumbnails/1/2']) {
      const res = await call('GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().ok).toBe(false);
      expect(res.json().error.message).toContain('POST /api/invoke/:channel');
    }
  });

  it('checks the session token first: without it nothing about the routes is told', async () => {
    await start();
    expect((await call('GET', '/api/nothing', {})).statusCode).toBe(401);
    expect((await call('GET', '/api/invoke/app:info', {})).statusCode).toBe(401);
  });
});
