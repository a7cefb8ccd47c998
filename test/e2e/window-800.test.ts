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
});
