// Drawn lettering (a word mark, a banner, a heading alone in its image) is captioned as text.
// Before, its single line was too tall for a line of a page, and word marks and banners were "a
// clip art image", or "a clip art image of a flag" (0.9) when on a coloured field. Real models,
// through the analyze service, on images drawn here as PNG files, and on fixtures that are not
// lettering.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { decodeImage } from '../../../../src-main/inference';
import { fixture, repoRoot } from '../../../helpers/paths';
import { openDescriber } from './describer';

const describer = openDescriber();
const dir = mkdtempSync(join(tmpdir(), 'picscan-lettering-'));
afterAll(async () => {
  await describer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An SVG of w×h px on a `ground` field, rendered to a PNG file. */
async function drawn(name: string, w: number, h: number, ground: string, body: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="${ground}"/>${body}</svg>`;
  const file = join(dir, `${name}.png`);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

const words = (x: number, y: number, size: number, fill: string, text: string, style = 'font-family="sans-serif"'): string =>
  `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" ${style}>${text}</text>`;

const letteringInkOf = async (file: string): Promise<number> =>
  (await measurePixels(await decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 5e7 }))).scene.letteringInk;

const analysed = (file: string) => describer.described(file, ['Tags', 'Description', 'Categories', 'ImageType']);

describe('drawn lettering', () => {
  const lettering: Array<[string, () => Promise<string>]> = [
    [
      'a word mark',
      () => drawn('mark', 600, 200, 'white', words(130, 125, 76, 'navy', 'picscan', 'font-family="sans-serif" font-weight="bold"')),
    ],
    ['a banner on a yellow field', () => drawn('banner', 468, 60, '#ffff00', words(120, 41, 30, '#cd0000', 'Open 24 hours'))],
    [
      'a capital slogan on orange',
      () =>
        drawn(
          'slogan',
          728,
          90,
          '#ff8c00',
          words(110, 60, 40, 'white', 'SUMMER SALE 50% OFF', 'font-family="sans-serif" font-weight="bold"'),
        ),
    ],
    [
      'a command on a black screen',
      () => drawn('terminal', 500, 120, 'black', words(90, 75, 50, '#00ff00', '$ npm start', 'font-family="monospace"')),
    ],
    [
      'a serif italic masthead',
      () =>
        drawn('masthead', 800, 150, 'white', words(120, 95, 60, 'black', 'The Daily Chronicle', 'font-family="serif" font-style="italic"')),
    ],
    [
      'a logo: a disc and a name',
      () =>
        drawn(
          'logo',
          400,
          120,
          'white',
          `<circle cx="60" cy="60" r="40" fill="#2e8b57"/>${words(110, 78, 48, '#333', 'Globex', 'font-family="sans-serif" font-weight="bold"')}`,
        ),
    ],
  ];

  it.each(lettering)('%s is "a line of text", tagged text and filed under text_, naming no flag', async (_, make) => {
    const file = await make();
    expect(await letteringInkOf(file)).toBeGreaterThanOrEqual(0.9);
    const r = await analysed(file);
    expect(r.caption).toBe('a line of text');
    expect(r.tags.get('text')).toBeGreaterThanOrEqual(0.5);
    expect(r.tags.get('flag') ?? 0).toBeLessThan(0.5);
    expect(r.categories).toContain('text_');
  });
});

describe('not lettering', () => {
  /** Five shapes in a row, filled or outlined: as wide as the row is tall, far apart. */
  const shapes = (fill: string, stroke: string): string =>
    `<g fill="${fill}" stroke="${stroke}" stroke-width="4"><circle cx="60" cy="80" r="40"/><rect x="140" y="40" width="80" height="80"/><path d="M260 120L300 40L340 120Z"/><ellipse cx="420" cy="80" rx="40" ry="25"/><rect x="490" y="50" width="110" height="60"/></g>`;
  const others: Array<[string, () => Promise<string>]> = [
    ['a row of filled shapes', () => drawn('shapes', 640, 160, 'white', shapes('steelblue', 'none'))],
    ['a row of outlined shapes', () => drawn('outlines', 640, 160, 'white', shapes('none', 'black'))],
    ['clip art of a horse', async () => fixture('horse_silhouette_clipart.png')],
    ['a line drawing of a lion', async () => fixture('lion_line_drawing.png')],
    ['a page of print', async () => join(repoRoot, 'test/fixtures/negatives/text_printed_sans_page.jpg')],
    ['a bar chart', async () => join(repoRoot, 'test/fixtures/negatives/chart_bars.jpg')],
  ];

  it.each(others)('%s is not "a line of text"', async (_, make) => {
    const file = await make();
    expect(await letteringInkOf(file)).toBeLessThan(0.6);
    expect((await analysed(file)).caption).not.toBe('a line of text');
  });
});
