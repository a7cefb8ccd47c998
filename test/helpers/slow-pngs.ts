import sharp from 'sharp';
import type { FixtureServer } from './http-server';

/**
 * Routes `n` distinct small PNGs (64 × 64, one flat colour each) on `server` under `prefix`, each
 * answered after `delayMs`, so a batch of them is still running when a test acts on it; returns
 * their URLs. Up to 256 per prefix are distinct; `tint` (green, blue) sets them apart from
 * another list's, which would otherwise be reused by content.
 */
export async function slowPngUrls(
  server: FixtureServer,
  prefix: string,
  n: number,
  delayMs: number,
  tint: { g: number; b: number } = { g: 90, b: 30 },
): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: i % 256, ...tint } } })
      .png()
      .toBuffer();
    server.route(`${prefix}/${i}.png`, { body, delayMs, headers: { 'content-type': 'image/png' } });
    urls.push(server.url(`${prefix}/${i}.png`));
  }
  return urls;
}
