// A page of print scanned or photographed a few degrees askew is still a page of text. Its lines
// slant, no row between them is blank, and before they counted as no lines at all: a page turned
// by 2–8° was "a bar chart" rated a line drawing (clipArtType 3, lineDrawingType 1). Real models,
// through the analyze service, on a page drawn here and turned by sharp.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { skewDegrees } from '../../../../src-main/analysis/scene/skew';
import { decodeImage } from '../../../../src-main/inference';
import { fixture } from '../../../helpers/paths';
import { openDescriber } from './describer';

const describer = openDescriber();
const dir = mkdtempSync(join(tmpdir(), 'picscan-skew-'));
afterAll(async () => {
  await describer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Twelve lines of print on white, 640 × 440 px. */
const PAGE = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="440"><rect width="100%" height="100%" fill="white"/>${Array.from(
  { length: 12 },
  (_, i) =>
    `<text x="20" y="${40 + i * 32}" font-size="20" font-family="sans-serif">Line ${i} of printed text, the quick brown fox jumps over</text>`,
).join('')}</svg>`;

async function turned(deg: number): Promise<string> {
  const file = join(dir, `page${deg}.png`);
  writeFileSync(
    file,
    await sharp(await sharp(Buffer.from(PAGE)).png().toBuffer())
      .rotate(deg, { background: 'white' })
      .png()
      .toBuffer(),
  );
  return file;
}

const linesOf = async (file: string): Promise<number> =>
  (await measurePixels(await decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 5e7 }))).scene.textLines;

describe('pages turned a few degrees', () => {
  it.each([2, -3, 5, 8])('a page turned by %i° keeps its twelve lines and is a page of text', async (deg) => {
    const file = await turned(deg);
    expect(await linesOf(file)).toBe(12);
    const r = await describer.described(file, ['Tags', 'Description', 'ImageType']);
    expect(r.caption).toBe('a page of text');
    expect(r.tags.get('text') ?? 0).toBeGreaterThanOrEqual(0.9);
    expect(r.tags.get('chart') ?? 0).toBeLessThan(0.5);
  });

  it('the skew found is the angle the page was turned by', () => {
    // Ink along lines falling 3 px per 100 to the right (1.7°) over a 300 × 200 image.
    const w = 300;
    const h = 200;
    const ink = new Uint8Array(w * h);
    for (let line = 0; line < 8; line++)
      for (let x = 10; x < 290; x++) if (x % 7 < 5) ink[Math.round(20 + line * 22 + x * 0.03) * w + x] = 1;
    expect(skewDegrees(w, h, (i) => ink[i] === 1)).toBe(2);
    // Level lines are read level.
    ink.fill(0);
    for (let line = 0; line < 8; line++) for (let x = 10; x < 290; x++) if (x % 7 < 5) ink[(20 + line * 22) * w + x] = 1;
    expect(skewDegrees(w, h, (i) => ink[i] === 1)).toBe(0);
  });

  it('a photo and a line drawing are not turned: their line counts stay 0', async () => {
    for (const name of ['cat_chelsea.jpg', 'lion_line_drawing.png']) expect(await linesOf(fixture(name))).toBe(0);
  });
});
