import { browserAvailable, chromiumPath } from './browser';

/**
 * Runs once before the browser suite: a missing Chromium skips the suite with one line (so
 * `npm test` passes on a machine without it), or fails the run when `PICSCAN_REQUIRE_BROWSER=1`.
 */
export default function checkBrowser(): void {
  if (browserAvailable) return;
  const how = `Install it with \`apt-get install chromium\`, or point CHROMIUM_PATH at a Chromium binary.`;
  if (process.env.PICSCAN_REQUIRE_BROWSER === '1') {
    throw new Error(`Browser end-to-end tests need Chromium, which is not at ${chromiumPath}. ${how}`);
  }
  console.warn(`Browser end-to-end tests skipped: no Chromium at ${chromiumPath}. ${how}`);
}
