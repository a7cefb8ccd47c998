import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { request } from 'undici';
import type { FixtureServer } from '../../helpers/http-server';

/** The three request forms a disconnecting client is tried with. */
export const DISCONNECT_CASES = [
  { name: 'detect GET', path: '/ai/faces/detect', method: 'GET' },
  { name: 'detect POST', path: '/ai/faces/detect', method: 'POST' },
  { name: 'analyze GET', path: '/ai/vision/analyze', method: 'GET' },
  { name: 'analyze POST', path: '/ai/vision/analyze', method: 'POST' },
] as const;
export type DisconnectCase = (typeof DISCONNECT_CASES)[number];

/**
 * When a client leaves, as fractions of the measured time the server spends on the models: in
 * the face search, the landmarks and the attribute models.
 */
export const DISCONNECT_AT = [0.1, 0.35, 0.6];

/**
 * How often a leave is tried: a reply that beats a late disconnect (the machine got quieter
 * since the calls were timed) is retried with a fresh, faster timing.
 */
export const LEAVE_ATTEMPTS = 3;

/**
 * Serves a fixture image at `path` and reports each time its bytes have been fully sent, so a
 * test can time a client's disconnect from the moment the server starts on the models.
 */
export function servedImage(images: FixtureServer, path: string, file: string): { next(): Promise<void> } {
  const bytes = readFileSync(file);
  let waiters: Array<() => void> = [];
  images.route(path, (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': bytes.length });
    res.on('finish', () => {
      const ready = waiters;
      waiters = [];
      for (const w of ready) w();
    });
    res.end(bytes);
  });
  return { next: () => new Promise<void>((resolve) => waiters.push(resolve)) };
}

function requestFor(base: string, c: DisconnectCase, image: string, key: string): { url: string; init: Parameters<typeof request>[1] } {
  if (c.method === 'GET') return { url: `${base}${c.path}?${new URLSearchParams({ image, key }).toString()}`, init: { method: 'GET' } };
  return {
    url: base + c.path,
    init: { method: 'POST', headers: { 'content-type': 'application/json', key }, body: JSON.stringify({ image }) },
  };
}

/**
 * One complete call; returns its status and the ms from the image being served to the reply
 * (the time the server spends on the models).
 */
export async function timedCall(
  base: string,
  c: DisconnectCase,
  image: string,
  key: string,
  served: { next(): Promise<void> },
): Promise<{ status: number; analysisMs: number }> {
  const { url, init } = requestFor(base, c, image, key);
  let servedAt = 0;
  void served.next().then(() => (servedAt = performance.now()));
  const res = await request(url, init);
  await res.body.text();
  return { status: res.statusCode, analysisMs: performance.now() - servedAt };
}

/**
 * A client that goes away `afterMs` after the image was served (while the server runs the
 * models). It runs in a worker thread (leaving-client.mjs) so its timer is not held up by model
 * runs of an in-process server. Resolves with how the request ended on the client: `aborted`
 * (no reply came) or the status of a reply that beat the disconnect.
 */
export async function disconnectingCall(
  base: string,
  c: DisconnectCase,
  image: string,
  key: string,
  served: { next(): Promise<void> },
  afterMs: number,
): Promise<'aborted' | number> {
  const { url, init } = requestFor(base, c, image, key);
  const client = new Worker(new URL('./leaving-client.mjs', import.meta.url), {
    workerData: { url, method: init?.method, headers: init?.headers ?? {}, body: init?.body },
  });
  void served.next().then(() => client.postMessage({ abortAfterMs: afterMs }));
  try {
    return await new Promise<'aborted' | number>((resolve, reject) => {
      client.once('message', (m: { ended: 'aborted' | number }) => resolve(m.ended));
      client.once('error', reject);
    });
  } finally {
    await client.terminate();
  }
}

/** Polls `probe` every 20 ms until it returns true or `timeoutMs` passes; returns the last answer. */
export async function eventually(probe: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}
