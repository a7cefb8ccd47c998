import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateTls } from '../../../src-main/services/api';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { getQuery, intakeOperations, postJson, realOperations, startApi, type ApiHarness } from './harness';

let images: FixtureServer;
beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
});
afterAll(() => images.close());

describe('SSRF: image URLs on private addresses are refused by default', () => {
  let api: ApiHarness;
  let key: string;
  // The real services with the server's default policy (as `picscan serve` without --allow-private-networks).
  const ops = realOperations({ blockPrivateNetworks: true });
  beforeAll(async () => {
    api = await startApi({ operations: ops });
    key = api.api.keys.create({ name: 'ssrf', tier: 'pro' }).key;
  });
  afterAll(async () => {
    await api.close();
    await ops.close();
  });

  const targets = (port: number): Array<[string, string]> => [
    ['loopback 127.0.0.1', `http://127.0.0.1:${port}/cat.jpg`],
    ['cloud metadata 169.254.169.254', 'http://169.254.169.254/latest/meta-data/iam'],
    ['a name resolving to loopback (localhost)', `http://localhost:${port}/cat.jpg`],
    ['IPv6 loopback', `http://[::1]:${port}/cat.jpg`],
    ['a private 10.x address', 'http://10.0.0.1/a.jpg'],
  ];

  it('analyze answers InvalidImageUrl without contacting the target and charges nothing', async () => {
    for (const [name, url] of targets(images.port)) {
      const res = await postJson(`${api.url}/ai/vision/analyze`, { image: url }, key);
      expect(res.status, name).toBe(400);
      expect(res.json, name).toMatchObject({ status: false, error: { code: 'InvalidImageUrl' } });
    }
    expect(images.hits('/cat.jpg')).toBe(0);
    expect(api.api.credits.chargedCount(1)).toBe(0);
  });

  it('detect answers ErrCode 5001 for the same targets', async () => {
    for (const [name, url] of targets(images.port)) {
      const res = await getQuery(`${api.url}/ai/faces/detect`, { image: url, key });
      expect(res.status, name).toBe(200);
      expect(res.json, name).toMatchObject({ Errors: [{ ErrCode: 5001 }] });
    }
    expect(images.hits('/cat.jpg')).toBe(0);
  });

  it('local files are never read', async () => {
    const res = await postJson(`${api.url}/ai/vision/analyze`, { image: `file://${fixture('cat_chelsea.jpg')}` }, key);
    expect(res.json).toMatchObject({ status: false, error: { code: 'InvalidImageUrl' } });
    const path = await postJson(`${api.url}/ai/vision/analyze`, { image: '/etc/passwd' }, key);
    expect(path.json).toMatchObject({ status: false, error: { code: 'InvalidImageUrl' } });
  });
});

describe('keys stay secret', () => {
  it('request logs carry method, path, status and trace id, never the key or the query string', async () => {
    const lines: string[] = [];
    const capture = (msg: string, fields?: Record<string, unknown>): void => void lines.push(`${msg} ${JSON.stringify(fields ?? {})}`);
    const api = await startApi({
      operations: intakeOperations(),
      logger: { debug: capture, info: capture, warn: capture, error: capture },
    });
    const key = api.api.keys.create({ name: 'log', tier: 'pro' }).key;
    const res = await getQuery(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), key });
    await postJson(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg') }, key);
    await getQuery(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), key: key + 'x' });
    await api.close();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('"path":"/ai/vision/analyze"');
    expect(lines[0]).toContain(String(res.headers['x-trace-id']));
    for (const line of lines) {
      expect(line).not.toContain(key.slice(4));
      expect(line).not.toContain('?');
    }
  });
});

describe('a slow client cannot hold the server', () => {
  const openSlow = (url: string): Promise<{ socket: Socket; closedAfterMs: Promise<number> }> =>
    new Promise((resolve) => {
      const { hostname, port } = new URL(url);
      const started = Date.now();
      const socket = connect(Number(port), hostname, () => {
        socket.write('POST /ai/vision/analyze HTTP/1.1\r\nHost: x\r\n'); // never finishes the head
        resolve({ socket, closedAfterMs: new Promise((r) => socket.on('close', () => r(Date.now() - started))) });
      });
      socket.on('error', () => {});
    });

  it('closes a connection whose headers trickle past the header timeout, while others are served', async () => {
    const api = await startApi({
      operations: intakeOperations(),
      timeouts: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, checkIntervalMs: 200 },
    });
    const key = api.api.keys.create({ name: 'slow', tier: 'pro' }).key;
    const slow = await Promise.all(Array.from({ length: 20 }, () => openSlow(api.url)));
    // Keep dribbling header bytes: a slowloris never goes idle, only the header timeout stops it.
    const drip = setInterval(() => slow.forEach((s) => s.socket.writable && s.socket.write('X-A: b\r\n')), 100);
    const ok = await postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg') }, key);
    expect(ok.status).toBe(200);
    const closed = await Promise.all(slow.map((s) => s.closedAfterMs));
    clearInterval(drip);
    for (const ms of closed) expect(ms).toBeLessThan(3_000);
    await api.close();
  });

  /** Milliseconds until `socket` is closed by the server (or `limitMs` when it is still open then). */
  const closedWithin = (socket: Socket, limitMs: number): Promise<number> => {
    const started = Date.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(limitMs), limitMs);
      socket.on('close', () => (clearTimeout(timer), resolve(Date.now() - started)));
    });
  };
  const silentSocket = (url: string): Socket => {
    const { hostname, port } = new URL(url);
    // Read (and drop) what arrives, so the server's close is seen.
    return connect(Number(port), hostname)
      .on('error', () => {})
      .resume();
  };

  it('closes connections that never send a byte, while others are served; a head that started arriving still gets its 408', async () => {
    const api = await startApi({ operations: intakeOperations(), timeouts: { headersTimeoutMs: 1_000, checkIntervalMs: 200 } });
    const key = api.api.keys.create({ name: 'idle', tier: 'pro' }).key;
    const silent = Array.from({ length: 10 }, () => silentSocket(api.url));
    const started = silentSocket(api.url);
    let answer = '';
    started.on('data', (d: Buffer) => (answer += d.toString()));
    started.on('connect', () => started.write('GET /ai/vision/analyze HTTP/1.1\r\nHost: x\r\n'));
    const closed = Promise.all([...silent, started].map((socket) => closedWithin(socket, 5_000)));
    const ok = await postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg') }, key);
    expect(ok.status).toBe(200);
    for (const ms of await closed) expect(ms).toBeLessThan(3_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    await api.close();
  });

  it('over HTTPS closes connections that never start the TLS handshake, or never send a request after it', async () => {
    const tls = await loadOrCreateTls({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-idle-tls-')) });
    const api = await startApi({ operations: intakeOperations(), tls, timeouts: { headersTimeoutMs: 1_000, checkIntervalMs: 200 } });
    const { port } = new URL(api.url);
    // No ClientHello: held for TLS's 120 s handshake timeout before.
    const beforeHandshake = silentSocket(api.url);
    // Handshake done, then nothing: the header timeout.
    const afterHandshake = connectTls({ port: Number(port), host: '127.0.0.1', ca: tls.cert, servername: '127.0.0.1' }).on(
      'error',
      () => {},
    );
    afterHandshake.resume();
    await new Promise((resolve) => afterHandshake.once('secureConnect', resolve));
    const [a, b] = await Promise.all([closedWithin(beforeHandshake, 6_000), closedWithin(afterHandshake, 6_000)]);
    expect(a).toBeLessThan(3_000);
    expect(b).toBeLessThan(4_000);
    await api.close();
  });

  it('closes a connection whose body trickles past the request timeout', async () => {
    const api = await startApi({
      operations: intakeOperations(),
      timeouts: { headersTimeoutMs: 1_000, requestTimeoutMs: 1_500, checkIntervalMs: 200 },
    });
    const { hostname, port } = new URL(api.url);
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    let response = '';
    socket.on('data', (d) => (response += d.toString()));
    socket.write('POST /ai/vision/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"image":');
    const drip = setInterval(() => socket.writable && socket.write(' '), 100);
    const ms = await new Promise<number>((r) => socket.on('close', () => r(Date.now() - started)));
    clearInterval(drip);
    expect(ms).toBeLessThan(3_500);
    expect(response).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(response).toMatch(/X-Trace-Id: [0-9a-f-]{36}/);
    expect(response).toContain('"code":"Timeout"');
    await api.close();
  });
});

describe('HTTPS with the generated self-signed certificate', () => {
  it('generates the certificate once into the data folder and serves the API over TLS', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'picscan-tls-'));
    const tls = await loadOrCreateTls({ dataDir });
    expect(tls.generated).toBe(true);
    expect(tls.certPath).toBe(join(dataDir, 'tls', 'server-cert.pem'));
    const again = await loadOrCreateTls({ dataDir });
    expect(again.generated).toBe(false);
    expect(again.cert).toBe(tls.cert);

    const api = await startApi({ operations: intakeOperations(), tls });
    expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const key = api.api.keys.create({ name: 'tls', tier: 'basic' }).key;
    const trusting = new Agent({ connect: { ca: tls.cert } });
    const res = await postJson(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg') }, key, trusting);
    expect(res.status).toBe(200);
    const localhost = await getQuery(
      api.url.replace('127.0.0.1', 'localhost') + '/ai/faces/detect',
      { image: images.url('/cat.jpg'), key },
      trusting,
    );
    expect(localhost.json).toHaveProperty('images');
    // A client that does not trust the certificate is refused by TLS.
    await expect(postJson(`${api.url}/ai/vision/analyze`, {}, key, new Agent())).rejects.toThrow(/self[- ]signed|certificate/i);
    await trusting.close();
    await api.close();
  });
});
