import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src-main/config';
import { openDatabase } from '../../src-main/store';
import { BATCH_NAME_MAX_CHARS, CAPTION_QUERY_MAX_CHARS, FILTER_LIST } from '../../src-main/shared/contract';
import { browserAvailable, launchChromium } from './support/browser';
import { fixtureProcessor } from './support/fixture-processor';
import { seedResults } from './support/seed';
import { startWebApp, type WebApp } from './support/web-app';

// Web mode against what a careless or hostile user does: text longer than the contract allows
// typed or pasted into the forms, a database another process keeps locked, and a tab left open
// while `picscan serve` is restarted.

let dataDir: string;
let web: WebApp;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'picscan-e2e-hostile-'));
  seedResults(loadConfig({ dataDir }, {}).dbPath, 20);
  web = await startWebApp({ processor: fixtureProcessor(), dataDir });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
});

/** The schema messages of the contract ("Invalid results:page request (filter.captionText: …)") are not for users. */
const internalMessage = /Invalid [a-z]+:[a-z]+ request|Too big/;

describe.skipIf(!browserAvailable)('web mode with hostile input', () => {
  it('caps the caption search and the tag filter at the contract limits instead of failing the query', async () => {
    await page.goto(web.appUrl);
    await page
      .getByTestId('batch-row')
      .getByRole('button', { name: /Seeded/ })
      .click();
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^20 results/);

    const caption = page.getByLabel('Caption contains');
    await caption.fill('seeded '.repeat(100)); // 700 characters
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^0 results/);
    expect((await caption.inputValue()).length).toBe(CAPTION_QUERY_MAX_CHARS);
    expect(await page.locator('main').innerText()).not.toMatch(internalMessage);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^20 results/);

    const tag = page.getByLabel('Add a tag');
    await tag.fill('t'.repeat(FILTER_LIST.maxChars + 100));
    await tag.press('Enter');
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^0 results/);
    expect(await page.locator('main').innerText()).not.toMatch(internalMessage);
  });

  it('caps the batch name at the contract limit instead of blocking the start with a schema message', async () => {
    await page.goto(web.appUrl);
    await page.getByRole('navigation').getByRole('button', { name: 'New batch' }).click();
    await page.getByLabel('Name').fill('n'.repeat(BATCH_NAME_MAX_CHARS * 3));
    await page.getByTestId('url-list').fill('https://images.example/a.jpg');
    await expect.poll(() => page.getByTestId('url-counts').innerText()).toMatch(/1 valid/);
    expect((await page.getByLabel('Name').inputValue()).length).toBe(BATCH_NAME_MAX_CHARS);
    expect(await page.locator('main').innerText()).not.toMatch(internalMessage);
    expect(await page.getByTestId('start-batch').isDisabled()).toBe(false);
    expect(pageErrors).toEqual([]);
  });

  it('names a database another process keeps locked, instead of "an unexpected internal error"', async () => {
    await page.goto(web.appUrl);
    const row = page.getByTestId('batch-row').first();
    await row.waitFor();
    page.once('dialog', (d) => void d.accept());
    // Another process's long write transaction (as `sqlite3` or a stuck picscan would hold it).
    const other = openDatabase(loadConfig({ dataDir }, {}).dbPath);
    other.exec('BEGIN IMMEDIATE');
    try {
      await row.getByRole('button', { name: 'Delete' }).click();
      await expect
        .poll(() => row.innerText(), { timeout: 20_000 })
        .toMatch(/Could not delete this batch: The database .*picscan\.db is locked by another process for too long/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(await row.innerText()).not.toMatch(/unexpected internal error/);
  });

  it('says so when a restarted server no longer accepts the open tab, instead of freezing its progress', async () => {
    await page.goto(web.appUrl);
    await page.getByTestId('batch-row').first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    const port = Number(new URL(web.origin).port);
    await web.close();
    web = await startWebApp({ processor: fixtureProcessor(), dataDir, port }); // a new session token
    await expect
      .poll(async () => (await page.getByRole('alert').allInnerTexts()).join('\n'), { timeout: 30_000 })
      .toMatch(/Live updates stopped: picscan no longer accepts this page .*Open the URL it printed/);
    expect(pageErrors).toEqual([]);
  });
});
