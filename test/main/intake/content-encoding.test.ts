import { readFileSync } from 'node:fs';
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadImage } from '../../../src-main/intake';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { expectAppError, testOptions } from './support';

const CAT = readFileSync(fixture('cat_chelsea.jpg')); // 451 × 300, 42 KB

/** `mb` MiB of zeros, gzipped as a stream (about 1 KB per MiB): a decompression bomb. */
async function gzipBomb(mb: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(1 << 20);
  for (let i = 0; i < mb; i++) if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  gzip.end();
  await done;
  return Buffer.concat(out);
}

describe('content encodings', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('asks for the image bytes as stored (Accept-Encoding: identity)', async () => {
    server.route('/plain.jpg', { body: CAT });
    await loadImage(server.url('/plain.jpg'), testOptions());
    expect(server.requests.find((r) => r.path === '/plain.jpg')?.headers['accept-encoding']).toBe('identity');
  });

  const ENCODED: Array<[string, Buffer]> = [
    ['gzip', gzipSync(CAT)],
    ['deflate', deflateSync(CAT)],
    ['br', brotliCompressSync(CAT)],
  ];

  it.each(ENCODED)('decodes a body sent with Content-Encoding: %s', async (encoding, body) => {
    server.route(`/cat-${encoding}.jpg`, { body, headers: { 'content-encoding': encoding, 'content-type': 'image/jpeg' } });
    const plain = await loadImage(server.url('/plain.jpg'), testOptions());
    const img = await loadImage(server.url(`/cat-${encoding}.jpg`), testOptions());
    expect(img.metadata).toEqual({ width: 451, height: 300, format: 'Jpeg' });
    expect(img.sha256).toBe(plain.sha256);
  });

  it('refuses a gzip bomb early with the usual "too large" error', async () => {
    const maxBytes = 1 << 20;
    const bomb = await gzipBomb(256); // 256 MiB decoded from about 250 KB
    server.route('/bomb.jpg', { body: bomb, headers: { 'content-encoding': 'gzip' } });
    const start = Date.now();
    const err = await expectAppError(loadImage(server.url('/bomb.jpg'), testOptions('desktop', { maxBytes })), 'image-too-large');
    expect(err.message).toMatch(/is too large: the server sent more than 1 MB, and the limit is 1 MB/);
    // Refused within one decoder chunk past the limit, long before the 256 MiB are inflated.
    expect(Number(err.details?.bytes)).toBeLessThanOrEqual(maxBytes + 64 * 1024);
    expect(Date.now() - start).toBeLessThan(5_000);
  });

  it('reports a body that is not valid gzip, and a coding it cannot decode', async () => {
    server.route('/broken-gzip.jpg', { body: gzipSync(CAT).subarray(0, 500), headers: { 'content-encoding': 'gzip' } });
    const broken = await expectAppError(loadImage(server.url('/broken-gzip.jpg'), testOptions()), 'image-fetch-failed');
    expect(broken.message).toMatch(/not valid gzip data/);
    server.route('/zstd.jpg', { body: CAT, headers: { 'content-encoding': 'zstd' } });
    const unknown = await expectAppError(loadImage(server.url('/zstd.jpg'), testOptions()), 'image-fetch-failed');
    expect(unknown.message).toMatch(/Content-Encoding "zstd"/);
  });
});
