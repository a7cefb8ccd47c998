import { createServer } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths';
import { startFixtureServer, type FixtureServer } from '../helpers/http-server';
import { browserAvailable, launchChromium, snap } from './support/browser';
import { fixtureProcessor } from './support/fixture-processor';
import { startWebApp, type WebApp } from './support/web-app';

// What a user sees in a small window (800 × 600), in Debian's Chromium: Results before any batch,
// items that failed (a 404, a file that is no image, a host that refuses the connection), an
// item's analysis, faces and header, the way Back, and Settings' choice of backend.

let images: FixtureServer;
let web: WebApp;
let browser: Browser;
let page: Page;
let closedPort: number;

/** A loopback port nothing listens on: connecting to it is refused. */
async function freeClosedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

beforeAll(async () => {
  images = await startFixtureServer();
  for (const file of ['family_six_faces.jpg', 'cat_chelsea.jpg']) {
    images.route(`/img/${file}`, { file: fixture(file), headers: { 'content-type': 'image/jpeg' } });
  }
  images.route('/img/notes.jpg', { body: 'these are notes, not a picture', headers: { 'content-type': 'text/plain' } });
  closedPort = await freeClosedPort();
  web = await startWebApp({ processor: fixtureProcessor() });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 800, height: 600 } });
});

afterAll(async () => {
  await browser?.close();
  await web?.close();
  await images?.close();
});

const card = (file: string) => page.locator(`[data-testid="result-card"][title$="${file}"]`);

describe.skipIf(!browserAvailable)('failed items and item details at 800 × 600', () => {
  it('says how to get results when there are none yet, and opens New batch from there', async () => {
    await page.goto(web.appUrl);
    await page.getByRole('navigation').getByRole('button', { name: 'Results' }).click();
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^0 results/);
    const empty = page.getByTestId('results-empty');
    expect(await empty.innerText()).toMatch(/^No results yet\. Start a batch with New batch: paste image URLs/);
    await snap(page, 'results-empty-800');
    await empty.getByRole('button', { name: 'New batch' }).click();
    await page.getByTestId('url-list').waitFor();
  });

  it('runs a batch with three failures', async () => {
    await page.goto(web.appUrl);
    await page.getByRole('navigation').getByRole('button', { name: 'New batch' }).click();
    const urls = [
      images.url('/img/family_six_faces.jpg'),
      images.url('/img/cat_chelsea.jpg'),
      images.url('/img/missing.jpg'),
      images.url('/img/notes.jpg'),
      `http://127.0.0.1:${closedPort}/img/unreachable.jpg`,
    ];
    await page.getByLabel('Name').fill('Failures');
    await page.getByTestId('url-list').fill(urls.join('\n'));
    await expect.poll(() => page.getByTestId('url-counts').innerText()).toBe('5 read · 5 valid · 0 invalid');
    await page.getByTestId('start-batch').click();
    const row = page.locator('[data-testid="batch-row"][data-status="done"]').filter({ hasText: 'Failures' });
    await row.waitFor({ timeout: 60_000 });
    expect(await row.innerText()).toContain('3 failed');
  });

  it('shows on each failed card why it failed, in full', async () => {
    await page.getByTestId('batch-row').getByRole('button', { name: 'Failures' }).click();
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^5 results in batch 1/);
    const reasons: Record<string, RegExp> = {
      'missing.jpg': /HTTP 404/,
      'notes.jpg': /not a recognised image/,
      'unreachable.jpg': /connection was refused/,
    };
    for (const [file, reason] of Object.entries(reasons)) {
      const error = card(file).locator('.error');
      await error.scrollIntoViewIfNeeded();
      expect(await error.innerText()).toMatch(reason);
      // Every line of it on the card: not cut off at the end of a line or below the card.
      const cut = await error.evaluate((el) => {
        const body = el.parentElement!;
        return { x: el.scrollWidth - el.clientWidth, y: el.scrollHeight - el.clientHeight, body: body.scrollHeight - body.clientHeight };
      });
      expect([file, cut]).toEqual([file, { x: 0, y: 0, body: 0 }]);
    }
    await snap(page, 'failures-cards-800');

    // A filter that matches nothing: said so, with the way back.
    await page.getByLabel('Caption contains').fill('no such caption');
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^0 results in batch 1/);
    expect(await page.getByTestId('results-empty').innerText()).toBe('No results match these filters. Remove the filters');
    await page.getByTestId('results-empty').getByRole('button', { name: 'Remove the filters' }).click();
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^5 results in batch 1/);
  });

  it('leaves the results grid most of two rows of cards at 800 × 600', async () => {
    // At 800 × 600 the grid has the room for most of two rows of cards (the charts, whose tags
    // and categories the filter panel lists with the same counts, make way); taller, they show.
    const grid = page.getByRole('grid', { name: 'Results' });
    const cardRow = await page
      .locator('[role="gridcell"]')
      .first()
      .evaluate((c) => c.getBoundingClientRect().height + 12);
    expect((await grid.boundingBox())!.height).toBeGreaterThanOrEqual(1.6 * cardRow);
    expect(await page.getByRole('figure', { name: 'Top tags' }).isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => page.getByRole('figure', { name: 'Top tags' }).isVisible()).toBe(true);
    await page.setViewportSize({ width: 800, height: 600 });
  });

  it('lists every face of a detail with its gender, age and box, readable however small the image is drawn', async () => {
    await card('family_six_faces.jpg').click();
    await page.getByTestId('face-box').first().waitFor();
    expect(await page.getByTestId('face-box').count()).toBe(6);
    // The fixture analysis gives face i the age 30 + i and alternating genders (Male first).
    const listed = await page.getByTestId('face-list').locator('li').allInnerTexts();
    expect(listed).toHaveLength(6);
    const rects = await page
      .getByTestId('face-box')
      .locator('rect')
      .evaluateAll((all) => all.map((r) => ['x', 'y', 'width', 'height'].map((a) => r.getAttribute(a))));
    listed.forEach((text, i) => {
      const [x, y, w, h] = rects[i]!;
      expect(text).toBe(`${i + 1}. ${i % 2 ? 'Female' : 'Male'}, ${30 + i} · at ${x}, ${y} · ${w} × ${h} px`);
    });
    // Each face box carries its number, so a list entry can be found on the image.
    const numbers = await page.getByTestId('face-box').locator('text').allTextContents();
    expect(numbers.map((t) => t.split(' ')[0])).toEqual(['1', '2', '3', '4', '5', '6']);
    await snap(page, 'details-faces-800');
    await page.goBack();
  });

  it("shows the response's caption confidence, adult and racy verdicts, clip art type and colours", async () => {
    await card('family_six_faces.jpg').click();
    await page.getByTestId('detail-fields').waitFor();
    // The response's verdicts and details next to the stored columns (fixture analysis: caption
    // confidence 0.7, adult 0.01 and racy 0.02 and neither, no clip art, Brown on Blue).
    const fields = await page.getByTestId('detail-fields').innerText();
    for (const shown of [
      'a picture of family six faces (confidence 0.70)',
      '0.01 · not adult content',
      '0.02 · not racy',
      '0 · not clip art',
      '(foreground Brown, background Blue)',
    ])
      expect(fields).toContain(shown);
    await page.goBack();
  });

  it('opens a failed item with the reason at the top, not a page of empty analysis fields', async () => {
    for (const [file, reason] of [
      ['missing.jpg', /^Not analysed: Could not fetch the image at \S+missing\.jpg: the server answered HTTP 404/],
      ['unreachable.jpg', /^Not analysed: Could not fetch the image at \S+unreachable\.jpg: the connection was refused/],
    ] as const) {
      await card(file).scrollIntoViewIfNeeded();
      await card(file).click();
      await page.getByTestId('detail-fields').waitFor();
      expect(await page.getByRole('alert').count()).toBe(1);
      expect(await page.getByRole('alert').innerText()).toMatch(reason);
      const fields = await page.getByTestId('detail-fields').locator('dt').allInnerTexts();
      expect(fields).toEqual(['URL', 'Status']);
      expect(await page.locator('main').innerText()).not.toMatch(/No image stored|faces? marked|Adult score|Raw JSON/);
      await snap(page, `details-failed-${file}-800`);
      await page.goBack();
      await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^5 results/);
    }
  });

  it("goes Back to the screen it came from, and to its batch's results when opened from a link", async () => {
    // Opened from the results of all batches: Back returns there.
    await page.getByTestId('results-total').getByRole('button', { name: '(all batches)' }).click();
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^5 results$/);
    const itemId = await card('cat_chelsea.jpg').getAttribute('data-item-id');
    await card('cat_chelsea.jpg').click();
    await page.getByTestId('detail-fields').waitFor();
    await page.getByRole('button', { name: '← Back' }).click();
    await expect.poll(() => page.getByTestId('results-total').innerText()).toMatch(/^5 results$/);
    expect(new URL(page.url()).hash).toBe('#/results');

    // The detail's address opened in a new tab: Back shows the item's batch instead of leaving the app.
    const tab = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await tab.goto(`${web.appUrl}#/item/${itemId}`);
    await tab.getByTestId('detail-fields').waitFor();
    await tab.getByRole('button', { name: '← Back' }).click();
    await expect.poll(() => tab.getByTestId('results-total').innerText()).toMatch(/^5 results in batch 1/);
    expect(new URL(tab.url()).hash).toBe('#/results/1');
    await tab.close();
  });

  it('keeps the header of a detail whose file name is long within the window', async () => {
    const long = 'IMG_20240101_123456_holiday_in_the_mountains_with_the_whole_family_final_v2.jpg';
    images.route(`/img/${long}`, { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
    await page.getByRole('navigation').getByRole('button', { name: 'New batch' }).click();
    await page.getByLabel('Name').fill('Long name');
    await page.getByTestId('url-list').fill(images.url(`/img/${long}`));
    await expect.poll(() => page.getByTestId('url-counts').innerText()).toBe('1 read · 1 valid · 0 invalid');
    await page.getByTestId('start-batch').click();
    await page.locator('[data-testid="batch-row"][data-status="done"]').filter({ hasText: 'Long name' }).waitFor();
    await page.getByTestId('batch-row').getByRole('button', { name: 'Long name' }).click();
    await card(long).click();
    await page.getByTestId('detail-fields').waitFor();
    const header = page.locator('header.bar');
    expect(await header.getByRole('heading').innerText()).toBe(long);
    const viewport = page.viewportSize()!;
    for (const control of [
      header.getByRole('button', { name: '← Back' }),
      header.getByRole('heading'),
      header.getByRole('button', { name: 'Batch 2' }),
      header.getByRole('button', { name: 'Re-analyse' }),
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      // Nothing cut off inside it either (the name wraps rather than running out of its box).
      expect(await control.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    }
    // The buttons keep their one-line labels.
    const back = (await header.getByRole('button', { name: '← Back' }).boundingBox())!;
    const reanalyse = (await header.getByRole('button', { name: 'Re-analyse' }).boundingBox())!;
    expect(back.height).toBe(reanalyse.height);
    expect(await page.evaluate(() => document.querySelector('main')!.scrollWidth - document.querySelector('main')!.clientWidth)).toBe(0);
    await snap(page, 'details-long-name-800');
  });

  it("gives a detail's values the whole width of their column in a small window", async () => {
    const viewport = page.viewportSize()!;
    // Labels go above the values in a narrow window…
    const widths = async () =>
      page.getByTestId('detail-fields').evaluate((dl) => ({
        list: dl.clientWidth,
        values: Array.from(dl.querySelectorAll('dd'), (dd) => dd.clientWidth),
        sideBySide: dl.querySelector('dt')!.getBoundingClientRect().top === dl.querySelector('dd')!.getBoundingClientRect().top,
      }));
    const narrow = await widths();
    expect(narrow.sideBySide).toBe(false);
    for (const w of narrow.values) expect(w).toBe(narrow.list);
    // …and beside them in a wide one.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => (await widths()).sideBySide).toBe(true);
    await page.setViewportSize(viewport);
    await snap(page, 'details-narrow-fields-800');
  });

  it('says why the Distributed workers backend cannot be chosen yet in Settings', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    const radio = page.getByRole('radio', { name: 'Distributed workers' });
    await radio.waitFor();
    expect(await radio.isDisabled()).toBe(true);
    expect(await radio.evaluate((el) => (el as HTMLInputElement).labels![0]!.closest('fieldset')!.innerText)).toContain(
      'Needs a Redis URL: set one under Distributed workers.',
    );
    expect(await radio.getAttribute('aria-describedby')).toBe('redis-needed');
    await page.getByTestId('redis-url').fill('redis://127.0.0.1:6379');
    expect(await radio.isDisabled()).toBe(false);
    expect(await page.locator('#redis-needed').count()).toBe(0);
    await page.getByTestId('redis-url').fill('');
  });
});
