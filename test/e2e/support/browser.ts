import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '../../helpers/paths';

/** Where the browser tests look for Chromium: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser suite can run here. A machine without Chromium skips it (the e2e global
 * setup prints one line saying how to install it); with `PICSCAN_REQUIRE_BROWSER=1` (set by
 * `.ci/run`) the global setup fails the run instead, so CI never skips the suite silently.
 */
export const browserAvailable = existsSync(chromiumPath);

/** Debian's Chromium, driven by playwright-core; never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const resultsDir = join(repoRoot, 'test-results');

/** Saves a screenshot for reviewers under test-results/ (git-ignored). */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(resultsDir, { recursive: true });
  await page.screenshot({ path: join(resultsDir, `${name}.png`) });
}
