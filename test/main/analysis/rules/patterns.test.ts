// A drawn pattern (checks, dots, tiles, a grid, bricks) is described as a pattern. Before, a
// checkerboard was "a clip art image of a decoration", a grid of lines "a flag drawn in black and
// white" and a grid of dots "a page of text" (0.95). Real models, through the analyze service, on
// images drawn here as PNG files and on the pattern fixtures.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { decodeImage } from '../../../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../../../src-main/intake';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { fixture, repoRoot } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

const engine = createEngine();
const service = createAnalyzeService({ runModel: runnerOf(engine), loader: createImageLoader(intakeOptions('desktop')) });
const dir = mkdtempSync(join(tmpdir(), 'picscan-patterns-'));
afterAll(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** An SVG of w×h px on white, rendered to a PNG file. */
async function drawn(name: string, body: string, w = 640, h = 480): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
  const file = join(dir, `${name}.png`);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

/** One SVG element per cell of a cols×rows grid with `step` px cells. */
const cells = (cols: number, rows: number, step: number, cell: (x: number, y: number, col: number, row: number) => string): string =>
  Array.from({ length: rows }, (_, row) => Array.from({ length: cols }, (_, col) => cell(col * step, row * step, col, row)).join('')).join(
    '',
  );

async function analysed(file: string) {
  const { data } = await service.analyze(file, { features: ['Tags', 'Description', 'Categories', 'ImageType'] });
  const tags = new Map(data.tags!.map((t) => [t.name, t.confidence]));
  return { caption: data.description!.captions[0]!.text, tags, categories: data.categories!.map((c) => c.name) };
}

const repetitionOf = async (file: string): Promise<number> =>
  (await measurePixels(await decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 5e7 }))).scene.repetition;

describe('a drawn pattern', () => {
  const patterns: Array<[string, () => Promise<string>]> = [
    [
      'a checkerboard',
      () =>
        drawn(
          'checks',
          cells(8, 6, 80, (x, y, c, r) => ((c + r) % 2 ? `<rect x="${x}" y="${y}" width="80" height="80"/>` : '')),
        ),
    ],
    [
      'a grid of dots',
      () =>
        drawn(
          'dots',
          cells(8, 6, 80, (x, y) => `<circle cx="${x + 40}" cy="${y + 40}" r="18"/>`),
        ),
    ],
    [
      'a grid of lines',
      () =>
        drawn(
          'lines',
          cells(13, 10, 48, (x, y) => `<path d="M${x + 4} ${y + 4}h48M${x + 4} ${y + 4}v48" stroke="black" stroke-width="2"/>`),
        ),
    ],
    [
      'coloured tiles',
      () =>
        drawn(
          'tiles',
          cells(
            10,
            8,
            64,
            (x, y, c, r) =>
              `<rect x="${x + 4}" y="${y + 4}" width="56" height="56" rx="10" fill="${(c + r) % 2 ? '#c03030' : '#3050b0'}"/>`,
          ),
        ),
    ],
    ['the checkerboard fixture', async () => join(repoRoot, 'test/fixtures/negatives/pattern_checkerboard.jpg')],
    ['the polka-dot fixture', async () => join(repoRoot, 'test/fixtures/negatives/pattern_polka_dots.jpg')],
  ];

  it.each(patterns)('%s is captioned a pattern, tagged pattern, and is no text', async (_, make) => {
    const file = await make();
    expect(await repetitionOf(file)).toBeGreaterThanOrEqual(0.9);
    const r = await analysed(file);
    expect(r.caption).toMatch(/^a (black and white )?pattern$/);
    expect(r.tags.get('pattern')).toBeGreaterThanOrEqual(0.5);
    expect(r.tags.get('text') ?? 0).toBeLessThan(0.5);
    expect(r.categories).toContain('abstract_texture');
  });
});

describe('not a pattern', () => {
  const others: Array<[string, () => Promise<string>]> = [
    // Stripes repeat along one axis only: a striped flag is left to the things it shows.
    [
      'a striped flag',
      () =>
        drawn(
          'stripes',
          cells(1, 9, 1, (_x, _y, _c, r) => (r % 2 ? `<rect x="0" y="${r * 40 + 60}" width="640" height="40" fill="#d02020"/>` : '')),
        ),
    ],
    ['a page of print', async () => join(repoRoot, 'test/fixtures/negatives/text_printed_sans_page.jpg')],
    ['a handwritten page', async () => join(repoRoot, 'test/fixtures/negatives/text_handwritten_script.jpg')],
    ['a bar chart', async () => join(repoRoot, 'test/fixtures/negatives/chart_bars.jpg')],
    ['a line drawing of a lion', async () => fixture('lion_line_drawing.png')],
    ['a photo of a cat', async () => fixture('cat_chelsea.jpg')],
    ['a group photo', async () => fixture('family_six_faces.jpg')],
  ];

  it.each(others)('%s is not captioned or tagged a pattern', async (_, make) => {
    const file = await make();
    expect(await repetitionOf(file)).toBeLessThan(0.8);
    const r = await analysed(file);
    expect(r.caption).not.toMatch(/pattern/);
    expect(r.tags.get('pattern') ?? 0).toBeLessThan(0.3);
  });
});
