import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src-main/config';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserAvailable, launchChromium } from './support/browser';
import { fixtureProcessor } from './support/fixture-processor';
import { seedResults } from './support/seed';
import { startWebApp, type WebApp } from './support/web-app';

// A batch deleted in one window while another shows its results: the Results view had gone on
// showing "0 results in batch 1", as if the batch had been emptied.

let web: WebApp;
let browser: Browser;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'picscan-e2e-deleted-'));
  seedResults(loadConfig({ dataDir }, {}).dbPath, 12);
  web = await startWebApp({ processor: fixtureProcessor(), dataDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
});

describe.skipIf(!browserAvailable)('a batch deleted while its results are shown', () => {
  it('the Results view says the batch no longer exists', async () => {
    const results = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await results.goto(web.appUrl);
    await results
      .getByTestId('batch-row')
      .getByRole('button', { name: /Seeded/ })
      .click();
    await expect.poll(() => results.getByTestId('results-total').innerText()).toMatch(/^12 results in batch 1/);

    const other = await browser.newPage();
    await other.goto(web.appUrl);
    other.once('dialog', (d) => void d.accept());
    await other.getByTestId('batch-row').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => other.getByTestId('batch-row').count()).toBe(0);

    await expect
      .poll(() => results.getByTestId('results-total').innerText(), { timeout: 30_000 })
      .toMatch(/^Batch 1 no longer exists: it was deleted\./);
    expect(await results.locator('main').innerText()).not.toMatch(/0 results in batch|No results match/);
  });
});
