// A batch bounds the decoded pixels it holds (from decode until the analysis ends), not only the
// number of images: large photos otherwise pile up decoded in the download and analysis stages.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intakeOptions } from '../../../src-main/intake';
import { createIntakeFetcher, type ImageFetcher, type ImageProcessor } from '../../../src-main/jobs';
import { PixelBudget } from '../../../src-main/jobs/pixel-budget';
import { createTestDb } from '../../helpers/db';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { batchOptions, fakeProcessor, listOf, makeService } from './support';

const SIDE = 1000; // px: each image decodes to 1 MP
let server: FixtureServer;
const urls: string[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
  for (let i = 0; i < 12; i++) {
    const body = await sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: { r: i * 20, g: 90, b: 40 } } })
      .png()
      .toBuffer();
    server.route(`/big/${i}.png`, { body, headers: { 'content-type': 'image/png' } });
    urls.push(server.url(`/big/${i}.png`));
  }
  const huge = await sharp({ create: { width: 2000, height: 2000, channels: 3, background: '#345' } })
    .png()
    .toBuffer();
  server.route('/huge.png', { body: huge, headers: { 'content-type': 'image/png' } });
});
afterAll(() => server.close());

/**
 * Runs `list` as a batch with the real intake fetcher and a processor taking 40 ms per image;
 * resolves to the most decoded pixels alive at once, counted from each fetch's return to the end
 * of its analysis (independently of the budget's own accounting), and the batch's counts.
 */
async function run(list: string[], pixelBudget: number | undefined) {
  let alive = 0;
  let peak = 0;
  const intake = createIntakeFetcher(intakeOptions('desktop', { retryBaseDelayMs: 5, maxRetryDelayMs: 50 }));
  const fetcher: ImageFetcher = {
    async fetch(url, signal, options) {
      const image = await intake.fetch(url, signal, options);
      alive += image.image.width * image.image.height;
      peak = Math.max(peak, alive);
      return image;
    },
    close: () => intake.close!(),
  };
  const inner = fakeProcessor({ delayMs: 40 });
  const processor: ImageProcessor = {
    async process(image, operation, signal) {
      try {
        return await inner.process(image, operation, signal);
      } finally {
        alive -= image.image.width * image.image.height;
      }
    },
  };
  const service = makeService(createTestDb(), processor, {}, { fetcher, pixelBudget });
  const report = await service.create(listOf(list), batchOptions({ downloadConcurrency: 8, analysisConcurrency: 2 }));
  const summary = await service.start(report.batch.id);
  await service.close();
  return { peak, counts: summary.counts };
}

describe('the decoded pixels of a running batch', () => {
  it('stay within the budget, and every item is done', async () => {
    const bounded = await run(urls, 3 * SIDE * SIDE);
    expect(bounded.counts).toMatchObject({ total: 12, done: 12, failed: 0 });
    expect(bounded.peak).toBeLessThanOrEqual(3 * SIDE * SIDE);
    // Without a tighter budget the same batch holds more at once: the bound above is the budget's doing.
    const loose = await run(urls, 1e12);
    expect(loose.counts).toMatchObject({ done: 12 });
    expect(loose.peak).toBeGreaterThan(3 * SIDE * SIDE);
  });

  it('still lets an image larger than the whole budget through, alone', async () => {
    const r = await run([server.url('/huge.png'), ...urls.slice(0, 3)], 2 * SIDE * SIDE);
    expect(r.counts).toMatchObject({ total: 4, done: 4, failed: 0 });
    expect(r.peak).toBe(4 * SIDE * SIDE); // the 4 MP image, with nothing beside it
  });
});

describe('PixelBudget', () => {
  it('grants in order of asking, and a cancelled wait lets the next one through', async () => {
    const budget = new PixelBudget(10);
    await budget.acquire(6);
    const order: string[] = [];
    const controller = new AbortController();
    const big = budget.acquire(8, controller.signal).then(
      () => order.push('big'),
      () => order.push('big cancelled'),
    );
    const small = budget.acquire(3).then(() => order.push('small'));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]); // the small one waits behind the big one, though it would fit
    controller.abort();
    await Promise.all([big, small]);
    expect(order).toEqual(['big cancelled', 'small']);
    expect(budget.inUse).toBe(9);
    budget.release(9);
    expect(budget.inUse).toBe(0);
    expect(budget.peak).toBe(9);
  });
});
