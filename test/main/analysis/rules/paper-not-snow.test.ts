// The white paper of a page of writing is not snow: a typed page, a table and a settings screen
// measure as smooth, very bright grey pixels in their lower half, which the scene cues count as
// snow (and their top as overcast sky); they were tagged "outdoor" and "snow" at 1.0 and filed under outdoor_ and text_sign. Real
// models on a fixture page and on pages rendered here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels } from '../../../../src-main/analysis';
import { decodeImage, type RgbImage } from '../../../../src-main/inference';
import { VISUAL_FEATURES } from '../../../../src-main/shared/spec';
import { repoRoot } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

const engine = createEngine();
const runModel = runnerOf(engine);
afterAll(() => engine.dispose());

const rows = (n: number, y0: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<text x="50" y="${y0 + i * 34}">Item ${i + 1}</text><text x="300" y="${y0 + i * 34}">${(i * 7) % 23}</text>` +
      `<text x="450" y="${y0 + i * 34}">${(i * 1.25).toFixed(2)}</text><line x1="40" y1="${y0 + i * 34 + 8}" x2="760" y2="${y0 + i * 34 + 8}" stroke="#999"/>`,
  ).join('');
/** A table of figures on white, as a spreadsheet export or a scanned invoice shows it. */
const TABLE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="white"/>
<g font-family="sans-serif" font-size="15"><rect x="40" y="20" width="720" height="30" fill="#dde6f3"/>
<text x="50" y="40" font-weight="bold">Item</text><text x="300" y="40" font-weight="bold">Quantity</text><text x="450" y="40" font-weight="bold">Price</text>
${rows(15, 80)}</g></svg>`;

async function rendered(svg: string): Promise<RgbImage> {
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

async function analysed(img: RgbImage): Promise<{ tags: Map<string, number>; categories: string[] }> {
  const { data } = await analyzePixels(img, new Set(VISUAL_FEATURES), new Set(), { runModel });
  return { tags: new Map(data.tags!.map((t) => [t.name, t.confidence])), categories: data.categories!.map((c) => c.name) };
}

describe('a page of writing', () => {
  it.each([
    [
      'the typewritten page fixture',
      () => decodeImage(readFileSync(join(repoRoot, 'test/fixtures/negatives/text_typewriter_page.jpg')), { maxPixels: 5e7 }),
    ],
    // A short handwritten list on ruled paper: few lines of writing (text 0.63), its paper was
    // still overcast sky and snow ("outdoor" 0.89, "snow" 1.0).
    [
      'the handwritten notebook fixture',
      () => decodeImage(readFileSync(join(repoRoot, 'test/fixtures/negatives/text_handwritten_notebook.jpg')), { maxPixels: 5e7 }),
    ],
    ['a table rendered here', () => rendered(TABLE_SVG)],
  ])('%s is text, not snow outdoors', async (_, load) => {
    const { tags, categories } = await analysed(await load());
    expect(tags.get('text') ?? 0).toBeGreaterThanOrEqual(0.5);
    expect(tags.has('snow')).toBe(false);
    expect(tags.get('outdoor') ?? 0).toBeLessThan(0.3);
    expect(categories.filter((c) => c.startsWith('outdoor') || c === 'text_sign')).toEqual([]);
  });
});
