import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src-main/config';
import { browserAvailable, launchChromium } from './support/browser';
import { fixtureProcessor } from './support/fixture-processor';
import { seedResults } from './support/seed';
import { startWebApp, type WebApp } from './support/web-app';

// Web mode in a small window (800 × 600), the smallest the app is meant for: what the user sees
// around the Results view's toolbar and in Settings, measured in Chromium.

let web: WebApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'picscan-e2e-800-'));
  seedResults(loadConfig({ dataDir }, {}).dbPath, 1234);
  web = await startWebApp({ processor: fixtureProcessor(), dataDir });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 800, height: 600 }, acceptDownloads: true });
  await page.goto(web.appUrl);
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
});

async function openResults(): Promise<void> {
  await page.getByRole('button', { name: 'Results', exact: true }).click();
  await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^1,234 results/);
}

describe.skipIf(!browserAvailable)('web mode at 800 × 600', () => {
  it('the "download has started" message goes away by itself, and comes back for the next export', async () => {
    await openResults();
    const message = page.getByRole('status').filter({ hasText: 'The download has started.' });
    for (let round = 0; round < 2; round++) {
      await Promise.all([page.waitForEvent('download'), page.getByTestId('export-button').click()]);
      await message.waitFor({ state: 'visible', timeout: 5_000 });
      // Long enough to be read…
      await page.waitForTimeout(1_000);
      expect(await message.isVisible()).toBe(true);
      // …then gone without the user doing anything.
      await message.waitFor({ state: 'hidden', timeout: 10_000 });
    }
  });

  it('the results bar keeps the total, Sort and Export on one line, all in view', async () => {
    const controls = [page.getByRole('combobox', { name: 'Sort' }), page.getByTestId('export-format'), page.getByTestId('export-button')];
    async function measure(view: string): Promise<{ bar: { x: number; y: number; width: number; height: number }; centres: number[] }> {
      const bar = (await page.getByTestId('results-bar').boundingBox())!;
      const centres: number[] = [];
      for (const [i, control] of controls.entries()) {
        expect(await control.isVisible(), `${view}: control ${i} visible`).toBe(true);
        const b = (await control.boundingBox())!;
        expect(b.x + b.width, `${view}: control ${i} within the bar`).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
        centres.push(b.y + b.height / 2);
      }
      // The controls never wrap below one another.
      expect(Math.max(...centres) - Math.min(...centres), `${view}: controls on one row`).toBeLessThan(3);
      return { bar, centres };
    }
    /** The bar's heights, frame by frame, while a new sort loads: "· loading…" must not move anything. */
    async function heightsWhileLoading(sort: string): Promise<number[]> {
      await page.evaluate(() => {
        const w = window as unknown as { heights: number[]; sampling: boolean };
        w.heights = [];
        w.sampling = true;
        const bar = document.querySelector('[data-testid="results-bar"]')!;
        const sample = (): void => {
          w.heights.push(bar.getBoundingClientRect().height);
          if (w.sampling) requestAnimationFrame(sample);
        };
        sample();
      });
      await page.getByRole('combobox', { name: 'Sort' }).selectOption(sort);
      await page.waitForTimeout(1_000);
      return page.evaluate(() => {
        const w = window as unknown as { heights: number[]; sampling: boolean };
        w.sampling = false;
        return w.heights;
      });
    }

    await openResults();
    const { bar, centres } = await measure('all batches');
    const total = (await page.getByTestId('results-total').boundingBox())!;
    const controlHeight = Math.max(...(await Promise.all(controls.map(async (c) => (await c.boundingBox())!.height))));
    // One line: the bar is no taller than a control (plus the total's top margin), and the total
    // sits on the controls' line.
    expect(bar.height, 'all batches: bar height').toBeLessThanOrEqual(controlHeight + 10);
    expect(total.y + total.height / 2).toBeGreaterThan(Math.min(...centres) - controlHeight / 2);
    expect(total.y + total.height / 2).toBeLessThan(Math.max(...centres) + controlHeight / 2);
    expect(new Set(await heightsWhileLoading('faces')), 'all batches: bar heights while loading').toEqual(new Set([bar.height]));

    // One batch: "… in batch 1 (all batches)" is longer; its words may wrap, the controls may not.
    await page.getByRole('button', { name: 'Batches', exact: true }).click();
    await page.getByRole('button', { name: /^Seeded/ }).click();
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^1,234 results in batch 1/);
    const oneBatch = await measure('one batch');
    expect(new Set(await heightsWhileLoading('adult')), 'one batch: bar heights while loading').toEqual(new Set([oneBatch.bar.height]));
  });

  it('Settings: Save comes right after the fields it saves, and the Redis URL placeholder fits', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const redis = page.getByTestId('redis-url');
    await redis.waitFor();

    const { placeholder, room } = await redis.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = style.font;
      return {
        placeholder: ctx.measureText(input.placeholder).width,
        room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      };
    });
    expect(placeholder, 'placeholder width vs the field').toBeLessThanOrEqual(room);

    const saved = ['Backend', 'Distributed workers', 'Performance', 'Local API server'];
    const boxes = await Promise.all(
      saved.map(async (legend) => (await page.locator('fieldset', { has: page.locator('legend', { hasText: legend }) }).boundingBox())!),
    );
    const save = (await page.getByRole('button', { name: 'Save', exact: true }).boundingBox())!;
    const lastBottom = Math.max(...boxes.map((b) => b.y + b.height));
    const left = Math.min(...boxes.map((b) => b.x));
    // Directly below the last of them, at the start of the line (not beside another card)…
    expect(save.y).toBeGreaterThanOrEqual(lastBottom);
    expect(save.y - lastBottom).toBeLessThanOrEqual(24);
    expect(Math.abs(save.x - left)).toBeLessThanOrEqual(1);
    // …and the theme, which applies as soon as it is picked, is not in between nor beside it.
    const theme = (await page.getByRole('combobox', { name: 'Theme' }).boundingBox())!;
    expect(theme.y).toBeGreaterThan(save.y + save.height);
  });
});
