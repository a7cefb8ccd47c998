// The background of a page of writing is paper, whatever its colour: presentation slides on a blue,
// green or sky-blue gradient were "a page of text" tagged outdoor 1.0 and water, grass or sky 1.0
// (and filed under outdoor_). Real models, through the analyze service, on slides drawn here as PNG
// files; a photo with blue sky keeps its sky.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../helpers/paths';
import { openDescriber } from './describer';

const describer = openDescriber();
const dir = mkdtempSync(join(tmpdir(), 'picscan-slides-'));
afterAll(async () => {
  await describer.close();
  rmSync(dir, { recursive: true, force: true });
});

const BULLETS = [
  'Revenue up 12 % on last year',
  'Three new offices opened',
  'Customer satisfaction at 94 %',
  'Next steps: hiring and training',
];

/** A 1280 × 720 slide: a title and four bullets in white on a diagonal gradient from `from` to `to`. */
async function slide(name: string, from: string, to: string): Promise<string> {
  const lines = BULLETS.map(
    (t, i) => `<text x="100" y="${230 + i * 70}" font-size="32" font-family="sans-serif" fill="white">• ${t}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><text x="80" y="120" font-size="54" font-family="sans-serif" font-weight="bold" fill="white">Quarterly results 2026</text>${lines.join('')}</svg>`;
  const file = join(dir, `${name}.png`);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

const analysed = (file: string) => describer.described(file, ['Tags', 'Description', 'Categories', 'ImageType']);

describe('slides', () => {
  it.each([
    ['navy to steel blue', '#1d3557', '#457b9d'],
    ['dark to light green', '#1b4332', '#52b788'],
    ['sky blue', '#4a90d9', '#a7d3f5'],
  ])('a slide on a %s gradient is a page of text, with no setting', async (name, from, to) => {
    const r = await analysed(await slide(name.replace(/ /g, '-'), from, to));
    expect(r.caption).toBe('a page of text');
    for (const tag of ['outdoor', 'sky', 'water', 'grass']) expect(r.tags.get(tag) ?? 0).toBeLessThan(0.5);
    expect(r.categories.filter((c) => c.startsWith('outdoor_'))).toEqual([]);
  });

  it('a photo with blue sky keeps its sky and setting', async () => {
    const r = await analysed(fixture('colosseum.jpg'));
    expect(r.tags.get('sky') ?? 0).toBeGreaterThanOrEqual(0.5);
    expect(r.tags.get('outdoor') ?? 0).toBeGreaterThanOrEqual(0.5);
  });
});
