/** The detail screen's smart-thumbnail channel over the real batch service and the real models. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src-main/config';
import { silentLogger, sleep } from '../../../../src-main/core';
import { createBackend } from '../../../../src-main/app';
import type { UiBackend } from '../../../../src-main/http/bridge';
import type { ImageProcessor } from '../../../../src-main/jobs';
import type { SmartThumbnail } from '../../../../src-main/shared';
import { startFixtureServer, type FixtureServer } from '../../../helpers/http-server';
import { fixture } from '../../../helpers/paths';

let images: FixtureServer;
beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/portrait.jpg', { file: fixture('obama_portrait.jpg'), headers: { 'content-type': 'image/jpeg' } });
  images.route('/clipart.png', { file: fixture('cheese_clipart.png'), headers: { 'content-type': 'image/png' } });
});
afterAll(() => images.close());

// The batch itself only needs to finish; the thumbnail runs the real models on the item's image.
const quick: ImageProcessor = { process: async (image) => ({ kind: 'analyze', data: { requestId: 'r', metadata: image.metadata } }) };

/** The UI over the composed backend; without models, the install's models folder has no manifest. */
async function open(withModels: boolean): Promise<{ backend: UiBackend; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'picscan-ui-thumb-'));
  const config = loadConfig(withModels ? { dataDir } : { dataDir, modelsDir: join(dataDir, 'no-models') }, {});
  const composed = createBackend(config, {
    logger: silentLogger,
    batches: { processor: withModels ? quick : undefined, progressIntervalMs: 20 },
    ui: { mode: 'web', server: () => ({ running: false, url: null, error: null }) },
  });
  return { backend: await composed.ui(), close: () => composed.close() };
}

const run = (b: UiBackend, channel: keyof UiBackend['handlers'], req: unknown): Promise<unknown> => {
  const entry = b.handlers[channel] as { parse(r: unknown): unknown; run(r: unknown): Promise<unknown> };
  return Promise.resolve().then(() => entry.run(entry.parse(req)));
};

describe('results:smart-thumbnail', () => {
  it('returns a smart-cropped JPEG or PNG of exactly the size, named after the item', async () => {
    const { backend, close } = await open(true);
    try {
      const report = (await run(backend, 'batches:create', {
        list: { text: [images.url('/portrait.jpg'), images.url('/clipart.png')].join('\n'), format: 'txt' },
        options: { name: 'thumbs', operation: { kind: 'analyze', features: ['Tags'], details: [] }, backend: { kind: 'local' } },
      })) as { batch: { id: number } };
      for (
        let i = 0;
        i < 400 && ((await run(backend, 'batches:get', { batchId: report.batch.id })) as { status: string }).status !== 'done';
        i++
      )
        await sleep(25);
      const page = (await run(backend, 'results:page', { filter: { batchId: report.batch.id } })) as {
        items: Array<{ itemId: number; url: string }>;
      };
      const byName = new Map(page.items.map((x) => [x.url.split('/').pop(), x.itemId]));
      const jpeg = (await run(backend, 'results:smart-thumbnail', {
        itemId: byName.get('portrait.jpg'),
        width: 120,
        height: 60,
      })) as SmartThumbnail;
      expect(jpeg).toMatchObject({
        fileName: `${byName.get('portrait.jpg')}-portrait.jpg`,
        mimeType: 'image/jpeg',
        width: 120,
        height: 60,
      });
      expect(await sharp(Buffer.from(jpeg.dataBase64, 'base64')).metadata()).toMatchObject({ format: 'jpeg', width: 120, height: 60 });
      const png = (await run(backend, 'results:smart-thumbnail', {
        itemId: byName.get('clipart.png'),
        width: 40,
        height: 90,
      })) as SmartThumbnail;
      expect(await sharp(Buffer.from(png.dataBase64, 'base64')).metadata()).toMatchObject({ format: 'png', width: 40, height: 90 });
      await expect(run(backend, 'results:smart-thumbnail', { itemId: byName.get('clipart.png'), width: 0, height: 90 })).rejects.toThrow();
      await expect(run(backend, 'results:smart-thumbnail', { itemId: 9999, width: 10, height: 10 })).rejects.toMatchObject({
        code: 'not-found',
      });
    } finally {
      await close();
    }
  });

  it('is refused where the local models are not available', async () => {
    const { backend, close } = await open(false);
    await expect(run(backend, 'results:smart-thumbnail', { itemId: 1, width: 10, height: 10 })).rejects.toThrow(/not available/);
    await close();
  });
});
