import { readFileSync } from 'node:fs';
import { getEventListeners } from 'node:events';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_VERSION, createImageLoader, loadImage } from '../../../src-main/intake';
import { fixture, repoRoot } from '../../helpers/paths';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { expectAppError, testOptions } from './support';

const CAT = fixture('cat_chelsea.jpg'); // 451 × 300, 42 KB
const ASTRONAUT = fixture('astronaut_eileen_collins.jpg'); // 84 KB

describe('fetching over HTTP', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends a picscan User-Agent matching package.json', async () => {
    server.route('/ua.jpg', { file: CAT });
    await loadImage(server.url('/ua.jpg'), testOptions());
    const pkg = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
    expect(server.requests.find((r) => r.path === '/ua.jpg')?.headers['user-agent']).toBe(`picscan/${pkg.version}`);
  });

  it('reports 404 as image-fetch-failed with the status and the URL, without retrying', async () => {
    const err = await expectAppError(loadImage(server.url('/missing.jpg'), testOptions()), 'image-fetch-failed');
    expect(err.details).toMatchObject({ status: 404 });
    expect(err.message).toContain(server.url('/missing.jpg'));
    expect(err.message).toContain('404');
    expect(server.hits('/missing.jpg')).toBe(1);
  });

  it('retries a 500 and succeeds on the next attempt', async () => {
    server.route('/flaky.jpg', [{ status: 500 }, { file: CAT }]);
    const img = await loadImage(server.url('/flaky.jpg'), testOptions());
    expect(img.metadata).toEqual({ width: 451, height: 300, format: 'Jpeg' });
    expect(server.hits('/flaky.jpg')).toBe(2);
  });

  it('gives up after maxRetries on a persistent 503', async () => {
    server.route('/down.jpg', { status: 503 });
    const err = await expectAppError(loadImage(server.url('/down.jpg'), testOptions('desktop', { maxRetries: 2 })), 'image-fetch-failed');
    expect(err.details).toMatchObject({ status: 503 });
    expect(server.hits('/down.jpg')).toBe(3);
  });

  it('retries after a connection reset', async () => {
    server.route('/reset.jpg', [{ reset: true }, { file: CAT }]);
    const img = await loadImage(server.url('/reset.jpg'), testOptions());
    expect(img.metadata.width).toBe(451);
    expect(server.hits('/reset.jpg')).toBe(2);
  });

  it('honours Retry-After seconds on 429', async () => {
    server.route('/busy.jpg', [{ status: 429, headers: { 'retry-after': '1' } }, { file: CAT }]);
    const start = Date.now();
    const img = await loadImage(server.url('/busy.jpg'), testOptions());
    expect(img.metadata.width).toBe(451);
    expect(Date.now() - start).toBeGreaterThanOrEqual(950);
    expect(server.hits('/busy.jpg')).toBe(2);
  });

  it('honours a Retry-After HTTP date on 503', async () => {
    const when = (): string => new Date(Date.now() + 2000).toUTCString();
    server.route('/later.jpg', (_req, res, hit) => {
      if (hit === 1) {
        res.writeHead(503, { 'retry-after': when() }).end();
      } else {
        res.writeHead(200).end(readFileSync(CAT));
      }
    });
    const start = Date.now();
    await loadImage(server.url('/later.jpg'), testOptions('desktop', { maxRetryDelayMs: 3000 }));
    // An HTTP date has 1 s resolution, so the wait is between 1 and 2 s.
    expect(Date.now() - start).toBeGreaterThanOrEqual(900);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    server.route('/tomorrow.jpg', { status: 429, headers: { 'retry-after': '3600' } });
    const start = Date.now();
    const err = await expectAppError(loadImage(server.url('/tomorrow.jpg'), testOptions()), 'image-rate-limited');
    expect(err.details).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(Date.now() - start).toBeLessThan(10_000); // not the hour asked for
    expect(server.hits('/tomorrow.jpg')).toBe(1);
  });

  it('follows a few redirects and names the file after the original URL', async () => {
    server.route('/r/start.jpg', { redirectTo: '/r/two', status: 301 });
    server.route('/r/two', { redirectTo: server.url('/r/final.png'), status: 307 });
    server.route('/r/final.png', { file: CAT });
    const img = await loadImage(server.url('/r/start.jpg'), testOptions());
    expect(img.fileName).toBe('start.jpg');
    expect(img.metadata.format).toBe('Jpeg');
  });

  it('stops a redirect loop after maxRedirects hops', async () => {
    server.route('/loop-a', { redirectTo: '/loop-b' });
    server.route('/loop-b', { redirectTo: '/loop-a' });
    const err = await expectAppError(loadImage(server.url('/loop-a'), testOptions()), 'image-fetch-failed');
    expect(err.message).toMatch(/more than 5 redirects/);
    expect(server.hits('/loop-a') + server.hits('/loop-b')).toBe(6); // the request plus 5 redirects
  });

  it('refuses a redirect to another scheme', async () => {
    server.route('/to-ftp', { redirectTo: 'ftp://example.com/cat.jpg' });
    await expectAppError(loadImage(server.url('/to-ftp'), testOptions()), 'unsupported-scheme');
  });

  it('times out a body that trickles slower than the total timeout', async () => {
    server.route('/trickle.jpg', { file: CAT, chunkSize: 512, chunkDelayMs: 100 }); // ~8 s in all
    const start = Date.now();
    const err = await expectAppError(
      loadImage(server.url('/trickle.jpg'), testOptions('desktop', { totalTimeoutMs: 500 })),
      'image-timeout',
    );
    expect(Date.now() - start).toBeLessThan(1500);
    // The host answered (headers, then a slow body): a slow transfer, not a host that is down.
    expect(err.details).toMatchObject({ timeoutMs: 500, phase: 'total', answered: true });
    expect(err.message).toContain('/trickle.jpg');
  });

  it('times out a server that never sends headers', async () => {
    server.route('/silent.jpg', { file: CAT, delayMs: 3000 });
    const start = Date.now();
    const err = await expectAppError(
      loadImage(server.url('/silent.jpg'), testOptions('desktop', { totalTimeoutMs: 300 })),
      'image-timeout',
    );
    expect(Date.now() - start).toBeLessThan(1000);
    expect(err.details).toMatchObject({ phase: 'total', answered: false });
  });

  it('times out a connection that cannot be opened within connectTimeoutMs', async () => {
    const hangingLookup = (): Promise<never> => new Promise(() => {}); // the connect timer covers the lookup
    const start = Date.now();
    const opts = testOptions('desktop', { lookup: hangingLookup, connectTimeoutMs: 200, totalTimeoutMs: 5000 });
    const err = await expectAppError(loadImage(`http://stuck.example:${server.port}/cat.jpg`, opts), 'image-timeout');
    expect(err.details).toMatchObject({ phase: 'connect', timeoutMs: 200 });
    expect(Date.now() - start).toBeLessThan(2500); // undici's connect timer has ~500 ms resolution
  });

  it('refuses a Content-Length over the limit before reading the body', async () => {
    server.route('/big.jpg', { file: ASTRONAUT });
    const err = await expectAppError(loadImage(server.url('/big.jpg'), testOptions('desktop', { maxBytes: 50_000 })), 'image-too-large');
    expect(err.details).toMatchObject({ bytes: readFileSync(ASTRONAUT).length, limit: 50_000, declared: true });
  });

  it('refuses a chunked body without Content-Length once it passes the limit', async () => {
    server.route('/big-chunked.jpg', { file: ASTRONAUT, chunked: true, chunkSize: 8192 });
    const err = await expectAppError(
      loadImage(server.url('/big-chunked.jpg'), testOptions('desktop', { maxBytes: 50_000 })),
      'image-too-large',
    );
    expect(err.details).toMatchObject({ limit: 50_000, declared: false });
    expect(Number(err.details?.bytes)).toBeGreaterThan(50_000);
    expect(Number(err.details?.bytes)).toBeLessThanOrEqual(50_000 + 65_536);
  });

  it('stops an endless chunked body at the limit, holding no more than the limit in memory', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0xab);
    server.route('/endless.jpg', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const limit = 8 * 1024 * 1024;
    const rssBefore = process.memoryUsage().rss;
    const err = await expectAppError(loadImage(server.url('/endless.jpg'), testOptions('desktop', { maxBytes: limit })), 'image-too-large');
    const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    expect(Number(err.details?.bytes)).toBeLessThanOrEqual(limit + 64 * 1024);
    expect(rssGrowthMb).toBeLessThan(64); // the 8 MB limit plus buffers, not an unbounded stream
  });

  it('aborts promptly when the signal fires', async () => {
    server.route('/abort.jpg', { file: CAT, chunkSize: 512, chunkDelayMs: 100 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const start = Date.now();
    await expectAppError(loadImage(server.url('/abort.jpg'), testOptions(), controller.signal), 'cancelled');
    expect(Date.now() - start).toBeLessThan(1000);
  });

  it('aborts during a retry wait', async () => {
    server.route('/wait.jpg', { status: 503, headers: { 'retry-after': '2' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const start = Date.now();
    await expectAppError(
      loadImage(server.url('/wait.jpg'), testOptions('desktop', { maxRetryDelayMs: 5000 }), controller.signal),
      'cancelled',
    );
    expect(Date.now() - start).toBeLessThan(1000);
  });

  it('leaves no listeners on a long-lived caller signal (one signal for a whole batch)', async () => {
    server.route('/batch.jpg', { file: CAT });
    const batch = new AbortController();
    const loader = createImageLoader(testOptions());
    try {
      for (let i = 0; i < 5; i++) await loader.load(server.url('/batch.jpg'), batch.signal);
      await expectAppError(loader.load(server.url('/missing-in-batch.jpg'), batch.signal), 'image-fetch-failed');
    } finally {
      await loader.close();
    }
    expect(getEventListeners(batch.signal, 'abort')).toHaveLength(0);
  });

  it('refuses an already-aborted signal without any request', async () => {
    const before = server.requests.length;
    await expectAppError(loadImage(server.url('/never.jpg'), testOptions(), AbortSignal.abort()), 'cancelled');
    expect(server.requests.length).toBe(before);
  });

  it('reports a refused connection as image-fetch-failed', async () => {
    const closed = await startFixtureServer();
    const url = closed.url('/gone.jpg');
    await closed.close();
    const err = await expectAppError(loadImage(url, testOptions()), 'image-fetch-failed');
    expect(err.message).toContain('refused');
  });

  it('reports an untrusted HTTPS certificate as image-fetch-failed', async () => {
    const pems = generate([{ name: 'commonName', value: '127.0.0.1' }], { keySize: 2048, days: 1 });
    const tlsServer = await startFixtureServer({ tls: { key: pems.private, cert: pems.cert } });
    try {
      tlsServer.route('/cat.jpg', { file: CAT });
      const err = await expectAppError(loadImage(tlsServer.url('/cat.jpg'), testOptions()), 'image-fetch-failed');
      expect(err.message).toMatch(/^Could not fetch the image at https:\/\/127\.0\.0\.1:\d+\/cat\.jpg: a TLS\/certificate error/);
      expect(tlsServer.hits('/cat.jpg')).toBe(0);
    } finally {
      await tlsServer.close();
    }
  });

  // Servers that answer with something that is not HTTP/1.1: each was "…: a network error." before.
  it.each([
    [
      'a bad chunk size',
      'Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n',
      /: the server's reply is not valid HTTP \(invalid character in chunk size\)\.$/,
    ],
    [
      'a negative Content-Length',
      'Content-Length: -1\r\n\r\n\xff\xd8\xff',
      /: the server's reply is not valid HTTP \(invalid character in Content-Length\)\.$/,
    ],
    [
      'two Content-Lengths that disagree',
      'Content-Length: 10\r\nContent-Length: 3\r\n\r\n\xff\xd8\xff',
      /: the server sent a body whose length does not match its Content-Length header\.$/,
    ],
    [
      "headers over the client's limit",
      `X-Padding: ${'a'.repeat(200_000)}\r\nContent-Length: 0\r\n\r\n`,
      /: the server sent response headers larger than the client accepts\.$/,
    ],
  ])('reports a reply with %s as a malformed reply, not "a network error"', async (_name, rest, message) => {
    const path = `/malformed-${server.requests.length}.jpg`;
    server.route(path, (_req, res) => void res.socket?.end(`HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\n${rest}`, 'latin1'));
    const err = await expectAppError(loadImage(server.url(path), testOptions()), 'image-fetch-failed');
    expect(err.message).toMatch(message);
    expect(err.details?.reason).toEqual(expect.any(String));
  });

  it('reports a reply without a status line as a malformed reply', async () => {
    server.route('/no-status.jpg', (_req, res) => void res.socket?.end(readFileSync(CAT)));
    const err = await expectAppError(loadImage(server.url('/no-status.jpg'), testOptions()), 'image-fetch-failed');
    expect(err.message).toMatch(/no-status\.jpg: the server's reply is not valid HTTP \(expected HTTP\/, RTSP\/ or ICE\/\)\.$/);
  });

  it('stays healthy: one loader serves good images after all the failures', async () => {
    server.route('/ok.jpg', { file: CAT });
    const loader = createImageLoader(testOptions());
    try {
      const results = await Promise.all([1, 2, 3].map(() => loader.load(server.url('/ok.jpg'))));
      expect(results.map((r) => r.metadata.width)).toEqual([451, 451, 451]);
    } finally {
      await loader.close();
    }
  });
});
