// A photo of the night sky full of stars is "a starry sky". Before, rows of stars passed for lines
// of writing and deep-sky photos were "a page of text" (0.63–0.95), or the classifier named a
// glowing nebula "a nematode". Real models, through the analyze service, on skies rendered here
// with stars of many sizes and brightnesses, and on dark images that are not star fields.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { decodeImage } from '../../../../src-main/inference';
import { fixture } from '../../../helpers/paths';
import { openDescriber } from './describer';

const describer = openDescriber();
const dir = mkdtempSync(join(tmpdir(), 'picscan-stars-'));
afterAll(async () => {
  await describer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A deterministic generator of 0..1 numbers. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** An SVG of w×h px rendered to a JPEG file (q 90, as cameras and telescopes' pages serve them). */
async function rendered(name: string, w: number, h: number, body: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`;
  const file = join(dir, `${name}.jpg`);
  writeFileSync(file, await sharp(Buffer.from(svg)).flatten({ background: 'black' }).jpeg({ quality: 90 }).toBuffer());
  return file;
}

/** `count` stars over w×h px: blurred points of 0.5–2 px radius, most faint, a few bright, white to pale blue and yellow. */
function stars(w: number, h: number, count: number, seed: number): string {
  const r = random(seed);
  const tints = ['255,255,255', '200,215,255', '255,240,200'];
  return Array.from({ length: count }, () => {
    const level = 0.35 + 0.65 * r() ** 2;
    const radius = 0.5 + 1.5 * r() ** 3;
    return `<circle cx="${(r() * w).toFixed(1)}" cy="${(r() * h).toFixed(1)}" r="${radius.toFixed(2)}" fill="rgb(${tints[Math.floor(r() * 3)]})" fill-opacity="${level.toFixed(2)}" filter="url(#glow)"/>`;
  }).join('');
}

const GLOW =
  '<defs><filter id="glow"><feGaussianBlur stdDeviation="0.6"/></filter><radialGradient id="neb"><stop offset="0" stop-color="#b04070" stop-opacity="0.7"/><stop offset="1" stop-color="#b04070" stop-opacity="0"/></radialGradient></defs>';

const starPointsOf = async (file: string): Promise<number> =>
  (await measurePixels(await decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 5e7 }))).scene.starPoints;

const analysed = (file: string) => describer.described(file, ['Tags', 'Description', 'Categories', 'ImageType']);

describe('star fields', () => {
  const skies: Array<[string, () => Promise<string>]> = [
    [
      'a field of stars',
      () => rendered('field', 800, 600, `${GLOW}<rect width="100%" height="100%" fill="#04060c"/>${stars(800, 600, 500, 7)}`),
    ],
    [
      'a nebula among stars',
      () =>
        rendered(
          'nebula',
          640,
          640,
          `${GLOW}<rect width="100%" height="100%" fill="#020204"/><ellipse cx="320" cy="330" rx="170" ry="120" fill="url(#neb)"/>${stars(640, 640, 350, 11)}`,
        ),
    ],
    [
      'a portrait-format sky, sparse',
      () => rendered('portrait', 540, 960, `${GLOW}<rect width="100%" height="100%" fill="#080a14"/>${stars(540, 960, 260, 23)}`),
    ],
  ];

  it.each(skies)('%s is a starry sky, tagged star, sky and night, and not text', async (_, make) => {
    const file = await make();
    expect(await starPointsOf(file)).toBeGreaterThanOrEqual(2);
    const r = await analysed(file);
    expect(r.caption).toMatch(/a starry sky$/);
    for (const tag of ['star', 'sky', 'night']) expect(r.tags.get(tag) ?? 0).toBeGreaterThanOrEqual(0.5);
    expect(r.tags.get('text') ?? 0).toBeLessThan(0.5);
    expect(r.categories).not.toContain('text_');
  });

  it('a city skyline at night (lit windows below a dark sky) is not a starry sky', async () => {
    const r = random(5);
    const blocks: string[] = [];
    for (let x = 0; x < 800; x += 70) {
      const top = 300 + Math.floor(r() * 150);
      blocks.push(`<rect x="${x}" y="${top}" width="64" height="${600 - top}" fill="#0a0a0e"/>`);
      for (let y = top + 10; y < 590; y += 18)
        for (let wx = x + 6; wx < x + 58; wx += 12)
          if (r() < 0.35) blocks.push(`<rect x="${wx}" y="${y}" width="5" height="7" fill="#ffd27a"/>`);
    }
    const file = await rendered(
      'skyline',
      800,
      600,
      `<defs><linearGradient id="dusk" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#02030a"/><stop offset="1" stop-color="#1a2040"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#dusk)"/>${blocks.join('')}`,
    );
    expect(await starPointsOf(file)).toBe(0);
    const a = await analysed(file);
    expect(a.caption).not.toMatch(/starry/);
    expect(a.tags.get('star') ?? 0).toBeLessThan(0.5);
  });

  it('light writing on a dark page stays a page of text', async () => {
    const lines = Array.from(
      { length: 12 },
      (_, i) =>
        `<text x="20" y="${40 + i * 32}" font-size="20" font-family="sans-serif" fill="#e0e0e0">Line ${i} of printed text, the quick brown fox jumps over</text>`,
    );
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="440"><rect width="100%" height="100%" fill="#1e1e1e"/>${lines.join('')}</svg>`;
    const file = join(dir, 'dark-page.png');
    writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
    const r = await analysed(file);
    expect(r.tags.get('text') ?? 0).toBeGreaterThanOrEqual(0.5);
    expect(r.tags.get('star') ?? 0).toBeLessThan(0.5);
    expect(r.caption).not.toMatch(/starry/);
  });

  it.each(['rocket_launchpad.jpg', 'cat_chelsea.jpg', 'grace_hopper.jpg'])('the fixture %s has no star points', async (name) => {
    expect(await starPointsOf(fixture(name))).toBe(0);
  });
});
