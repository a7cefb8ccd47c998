import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths';
import { startFixtureServer, type FixtureServer } from '../helpers/http-server';
import { browserAvailable, launchChromium, snap } from './support/browser';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src-main/config';
import type { ImageProcessor } from '../../src-main/jobs';
import { workerBatchProcessor } from '../../src-main/services/batches-worker-pool';
import { FIXTURE_FILES } from './support/fixture-processor';
import { startWebApp, type WebApp } from './support/web-app';

// The whole user journey in Debian's Chromium against web mode, on the real models: a 20-URL
// batch (2 bad) from a loopback image server, progress to done, filters, detail with face boxes,
// CSV export, reload. What the UI shows is checked against the store and against ground truth
// the models are known to meet (every frontal face photo has faces; face-free fixtures none).

/** Fixtures with frontal faces (ground truth): analyze must find faces in each. */
const FRONTAL_FACE_FILES = [
  'astronaut_eileen_collins.jpg',
  'biden_portrait.jpg',
  'family_six_faces.jpg',
  'grace_hopper.jpg',
  'obama_biden_two_people.jpg',
  'obama_portrait.jpg',
  'tom_cruise.jpg',
];
/** Fixtures with no face at all (ground truth, `facesComplete`). */
const FACE_FREE_FILES = [
  'cat_chelsea.jpg',
  'coffee_cup.jpg',
  'rocket_launchpad.jpg',
  'horse_silhouette_clipart.png',
  'text_bw.png',
  'present_clipart.png',
  'cheese_clipart.png',
  'lion_line_drawing.png',
  'dancer_sketch_line_drawing.png',
];
let processor: ImageProcessor;
/** Files the real analysis found faces in (read from the store once the batch is done). */
let filesWithFaces: string[] = [];
const fileOf = (url: string | null | undefined): string => url?.split('/').pop() ?? '';

let images: FixtureServer;
let web: WebApp;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const total = (p: Page) => p.getByTestId('results-total');

beforeAll(async () => {
  images = await startFixtureServer();
  for (const file of FIXTURE_FILES) {
    images.route(`/img/${file}`, { file: fixture(file), headers: { 'content-type': file.endsWith('.png') ? 'image/png' : 'image/jpeg' } });
  }
  processor = await workerBatchProcessor(loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-e2e-models-')) }, {}));
  web = await startWebApp({ processor });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await processor?.close?.();
  await images?.close();
});

describe.skipIf(!browserAvailable)('web mode in Chromium', () => {
  it('creates a batch of 20 URLs (2 bad) and follows it to done', async () => {
    await page.goto(web.appUrl);
    // The app icon as the tab's favicon, served with the session like every UI file.
    const favicon = await page.request.get(new URL('favicon.png', page.url()).href);
    expect([favicon.status(), favicon.headers()['content-type']]).toEqual([200, 'image/png']);
    await page.getByRole('navigation').getByRole('button', { name: 'New batch' }).click();
    const urls = [...FIXTURE_FILES.map((f) => images.url(`/img/${f}`)), images.url('/img/missing.jpg'), 'not a url'];
    expect(urls).toHaveLength(20);
    await page.getByLabel('Name').fill('Fixtures');
    await page.getByTestId('url-list').fill(urls.join('\n'));
    await expect.poll(() => page.getByTestId('url-counts').innerText()).toBe('20 read · 19 valid · 1 invalid');
    await snap(page, '01-new-batch');
    await page.getByTestId('start-batch').click();

    const row = page.getByTestId('batch-row').filter({ hasText: 'Fixtures' });
    await row.waitFor();
    // While it runs: a partial progress bar, a rate and an ETA, pushed by server-sent events.
    await page.locator('[data-testid="batch-row"][data-status="running"]').filter({ hasText: 'img/s' }).waitFor();
    expect(Number(await row.getByRole('progressbar').getAttribute('aria-valuenow'))).toBeLessThan(100);
    expect(await row.innerText()).toMatch(/ETA /);
    await snap(page, '02-batches-running');
    await page.locator('[data-testid="batch-row"][data-status="done"]').waitFor({ timeout: 180_000 });
    expect(await row.getByTestId('batch-counts').innerText()).toBe('20 / 20 finished');
    expect(await row.innerText()).toContain('2 failed');
    expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await page.waitForTimeout(400); // the progress bar's width transition
    await snap(page, '02-batches-done');
  });

  it('filters the results by a tag and by "has faces", with live counts', async () => {
    await page.getByTestId('batch-row').getByRole('button', { name: 'Fixtures' }).click();
    await expect.poll(() => total(page).innerText()).toMatch(/^20 results in batch \d+/);
    await page.locator('[data-testid="result-card"] img').first().waitFor();
    await snap(page, '03-results');
    // Every card shows whole rows of chips and its flags line, and counts the tags it leaves out:
    // cards with a flags line (B&W, clip art) cut their second row of chips in half, and a card
    // whose long chips wrapped to a third row hid its "+N".
    const cards = await page.getByTestId('result-card').evaluateAll((all) =>
      all.map((card) => {
        const chips = card.querySelector('ul.chips')!;
        const body = chips.parentElement!;
        const more = chips.querySelector('.more')?.textContent ?? '+0';
        return {
          file: card.getAttribute('title')!.split('/').pop()!,
          chipsCut: chips.scrollHeight - chips.clientHeight,
          bodyCut: body.scrollHeight - body.clientHeight,
          named: chips.querySelectorAll('.chip:not(.more)').length + Number(more.slice(1)),
        };
      }),
    );
    expect(cards.length).toBeGreaterThanOrEqual(10);
    const batchTags = new Map(
      web.backend.service
        .resultsPage({ filter: { batchId: web.backend.service.list()[0]!.id }, limit: 100 })
        .items.map((i) => [fileOf(i.url), i.tags.length]),
    );
    for (const c of cards) {
      expect([c.file, c.chipsCut, c.bodyCut]).toEqual([c.file, 0, 0]);
      expect([c.file, c.named]).toEqual([c.file, batchTags.get(c.file)]);
    }

    // The first tag of the facet list: checking it shows exactly the count printed next to it.
    const firstTag = page.locator('fieldset:has(legend:text-is("Tags")) label').first();
    const tagName = await firstTag.locator('span.name').innerText();
    const tagCount = Number(await firstTag.locator('span.count').innerText());
    expect(tagCount).toBeGreaterThan(0);
    await firstTag.locator('input').check();
    await expect.poll(() => total(page).innerText()).toMatch(new RegExp(`^${tagCount} results? in batch`));
    await firstTag.locator('input').uncheck();
    await expect.poll(() => total(page).innerText()).toMatch(/^20 results/);

    // A tag typed in: "person" is found on the people photos, and the count matches the store.
    const batchId = web.backend.service.list()[0]!.id;
    const persons = web.backend.service.resultsPage({ filter: { batchId, tags: ['person'] } }).total;
    expect(persons).toBeGreaterThanOrEqual(5);
    await page.getByLabel('Add a tag').fill('person');
    await page.getByLabel('Add a tag').press('Enter');
    await expect.poll(() => total(page).innerText()).toMatch(new RegExp(`^${persons} results in batch`));
    expect(tagName.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => total(page).innerText()).toMatch(/^20 results/);

    filesWithFaces = web.backend.service.resultsPage({ filter: { batchId, minFaces: 1 }, limit: 100 }).items.map((i) => fileOf(i.url));
    expect(filesWithFaces).toEqual(expect.arrayContaining(FRONTAL_FACE_FILES));
    for (const file of FACE_FREE_FILES) expect(filesWithFaces).not.toContain(file);
    await page.getByTestId('faces-filter').selectOption('some');
    await expect.poll(() => total(page).innerText()).toMatch(new RegExp(`^${filesWithFaces.length} results`));
    const shown = await page.getByTestId('result-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('title')?.split('/').pop()));
    expect(shown.sort()).toEqual([...filesWithFaces].sort());
    await snap(page, '04-results-has-faces');
  });

  it('opens a detail with the face boxes drawn over the image', async () => {
    await page.locator('[data-testid="result-card"][title$="obama_biden_two_people.jpg"]').click();
    await page.getByTestId('face-box').first().waitFor();
    expect(await page.getByTestId('face-box').count()).toBe(2); // Obama and Biden (ground truth)
    await page.getByText('Raw JSON').click();
    const raw = JSON.parse(await page.getByTestId('raw-json').innerText()) as {
      faces: unknown[];
      description: { captions: Array<{ text: string }> };
    };
    expect(raw.faces).toHaveLength(2);
    const caption = raw.description.captions[0]!.text;
    expect(await page.getByTestId('detail-fields').innerText()).toContain(caption);
    await page.locator(`img[alt="${caption}"]`).waitFor();
    await snap(page, '05-detail');

    await page.locator('[data-testid="result-card"]').first().waitFor({ state: 'detached' });
    await page.goBack();
    await expect.poll(() => total(page).innerText()).toMatch(new RegExp(`^${filesWithFaces.length} results`));
  });

  it('exports the current filter as CSV', async () => {
    await page.getByTestId('export-format').selectOption('csv');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-button').click()]);
    expect(download.suggestedFilename()).toMatch(/^picscan-export-.*\.csv$/);
    const rows = parse(readFileSync(await download.path()), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(filesWithFaces.length);
    expect(rows.map((r) => fileOf(r.url)).sort()).toEqual([...filesWithFaces].sort());
    expect(rows.every((r) => r.status === 'done')).toBe(true);
  });

  it('finds everything still there after a reload', async () => {
    await page.reload();
    // The same screen, filter and results come back (the data from the database).
    await expect.poll(() => total(page).innerText()).toMatch(new RegExp(`^${filesWithFaces.length} results in batch`));
    expect(await page.getByTestId('faces-filter').inputValue()).toBe('some');
    await page.locator('[data-testid="result-card"] img').first().waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => total(page).innerText()).toMatch(/^20 results in batch/);
    await page.getByRole('navigation').getByRole('button', { name: 'Batches' }).click();
    const row = page.locator('[data-testid="batch-row"][data-status="done"]').filter({ hasText: 'Fixtures' });
    expect(await row.getByTestId('batch-counts').innerText()).toBe('20 / 20 finished');
  });

  it('moves through the results grid with the keyboard', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Results' }).click();
    await expect.poll(() => total(page).innerText()).toMatch(/^20 results/);
    const cards = page.getByTestId('result-card');
    await cards.first().focus();
    const focused = () =>
      page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('[data-index]')?.getAttribute('data-index'));
    expect(await focused()).toBe('0');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('1');
    await page.keyboard.press('ArrowDown');
    const columns = await page.evaluate(() => {
      const xs = Array.from(document.querySelectorAll('[role="gridcell"]'), (c) => c.getBoundingClientRect().top);
      return xs.filter((y) => y === xs[0]).length;
    });
    expect(await focused()).toBe(String(1 + columns));
    await page.keyboard.press('Enter');
    await page.getByTestId('detail-fields').waitFor();
    expect(page.url()).toMatch(/#\/item\/\d+$/);
    await page.goBack();
  });

  it('shows settings, and the dark theme', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('server-status').waitFor();
    expect(await page.getByTestId('server-status').innerText()).toContain(`Running at ${web.origin}`);
    // The worker command is shown on one line, not broken at its hyphens ("-" / "-redis").
    const command = page.locator('code', { hasText: 'picscan worker --redis' });
    const lineHeight = await command.evaluate((el) => parseFloat(getComputedStyle(el).fontSize) * 1.6);
    expect((await command.boundingBox())!.height).toBeLessThan(lineHeight);
    await snap(page, '06-settings');
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByRole('navigation').getByRole('button', { name: 'Results' }).click();
    await page.locator('[data-testid="result-card"] img').first().waitFor();
    await snap(page, '07-results-dark');
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Theme').selectOption('system');
  });

  it('runs the failed items again once their host serves them, leaving the line that is no URL failed', async () => {
    images.route('/img/missing.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
    await page.goto(web.appUrl);
    const row = page.getByTestId('batch-row').filter({ hasText: 'Fixtures' });
    expect(await row.innerText()).toContain('2 failed');
    await row.getByRole('button', { name: 'Retry failed' }).click();
    await expect.poll(() => row.innerText(), { timeout: 120_000 }).toContain('1 failed');
    // The row settles on the finished run: every item counted, status done (a CI run once read
    // 19 / 20 right after the row first showed done, so both are awaited, not read once).
    await expect.poll(() => row.getByTestId('batch-counts').innerText(), { timeout: 120_000 }).toBe('20 / 20 finished');
    await page.locator('[data-testid="batch-row"][data-status="done"]').filter({ hasText: 'Fixtures' }).waitFor({ timeout: 120_000 });
    // Only the line that is no URL is left: retrying it is refused with the reason.
    await row.getByRole('button', { name: 'Retry failed' }).click();
    await expect
      .poll(() => row.innerText())
      .toContain(
        'Could not retry the failed items of this batch: Batch 1 has no failed item to run again: lines that are not image URLs fail the same way.',
      );
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
