import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend } from '../../../../src-main/app';
import { loadConfig } from '../../../../src-main/config';
import { silentLogger, sleep } from '../../../../src-main/core';
import { webModeBridge, type UiBackend } from '../../../../src-main/http/bridge';
import type { ImageProcessor } from '../../../../src-main/jobs';
import { startFixtureServer, type FixtureServer } from '../../../helpers/http-server';

const TOKEN = 'test-token-0123456789';
let images: FixtureServer;

beforeAll(async () => {
  images = await startFixtureServer();
  for (const [name, r] of [
    ['red', 220],
    ['blue', 10],
  ] as const) {
    images.route(`/${name}.png`, {
      body: await sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g: 40, b: 255 - r } } })
        .png()
        .toBuffer(),
    });
  }
});
afterAll(() => images.close());

const tagger: ImageProcessor = {
  async process(image) {
    return { kind: 'analyze', data: { requestId: 'r', metadata: image.metadata, tags: [{ name: 'square', confidence: 0.9 }] } };
  },
};

const run = <C extends keyof UiBackend['handlers']>(b: UiBackend, channel: C, req: unknown) => {
  const entry = b.handlers[channel] as { parse(r: unknown): unknown; run(r: unknown): Promise<unknown> };
  return entry.run(entry.parse(req)) as Promise<never>;
};

async function batchOf(b: UiBackend, url: string): Promise<number> {
  const report = (await run(b, 'batches:create', {
    list: { text: url, format: 'txt' },
    options: { name: 'one', operation: { kind: 'analyze', features: ['Tags'], details: [] }, backend: { kind: 'local' } },
  })) as { batch: { id: number } };
  for (let i = 0; i < 400; i++) {
    if (((await run(b, 'batches:get', { batchId: report.batch.id })) as { status: string }).status === 'done') return report.batch.id;
    await sleep(25);
  }
  throw new Error('batch did not finish');
}

describe('web mode thumbnails over loopback', () => {
  it('are revalidated by ETag, so a reused item id never shows the old image', async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-thumbs-')) }, {});
    const composed = createBackend(config, {
      logger: silentLogger,
      batches: { processor: tagger, progressIntervalMs: 20 },
      ui: { mode: 'web', server: () => ({ running: false, url: null, error: null }) },
    });
    const ui = await composed.ui();
    const app = Fastify();
    await app.register(webModeBridge(ui, { token: TOKEN, rendererDir: null, logger: silentLogger, print: () => {} }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const thumb = (headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}/api/thumbnails/1?token=${TOKEN}`, { headers });
    try {
      const first = await batchOf(ui, images.url('/red.png'));
      const a = await thumb();
      expect(a.status).toBe(200);
      expect(a.headers.get('cache-control')).toBe('private, no-cache');
      const etagA = a.headers.get('etag')!;
      expect(etagA).toMatch(/^"[0-9a-f]+"$/);
      const bytesA = Buffer.from(await a.arrayBuffer());

      const revalidated = await thumb({ 'if-none-match': etagA });
      expect(revalidated.status).toBe(304);
      expect((await revalidated.arrayBuffer()).byteLength).toBe(0);

      // Deleting the newest batch frees its ids: the next batch's only item is item 1 again.
      await run(ui, 'batches:delete', { batchId: first });
      await batchOf(ui, images.url('/blue.png'));
      const b = await thumb({ 'if-none-match': etagA });
      expect(b.status).toBe(200);
      expect(b.headers.get('etag')).not.toBe(etagA);
      const bytesB = Buffer.from(await b.arrayBuffer());
      expect(bytesB.equals(bytesA)).toBe(false);
      const { dominant } = await sharp(bytesB).stats();
      expect(dominant.b).toBeGreaterThan(dominant.r);
    } finally {
      await app.close();
      await composed.close();
    }
  });
});
