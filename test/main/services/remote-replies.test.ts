import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core';
import { createRemoteClient, type RemoteClient, type RemoteClientOptions } from '../../../src-main/services/api';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';

// A remote service that misbehaves: the client must answer with a clear error, in bounded time
// and memory.
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
});
