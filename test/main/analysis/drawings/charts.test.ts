// Charts are named by the nearest reference charts (matplotlib renders, models/drawings/chart-references.json):
// real classifier, real images the references never saw (the repository's gnuplot renders among
// the face-free negatives, a bar chart drawn here as SVG), and the look-alikes the rule must
// refuse (a brick wall, a photographed notebook page, drawings and a page of text).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels } from '../../../../src-main/analysis';
import { CHART_KIND_WORDS, CHART_TABLE, DRAWING_TABLE, projectionId } from '../../../../src-main/analysis/drawings';
import { acceptedChart, CHART_RULE } from '../../../../src-main/analysis/rules';
import { decodeImage, type RgbImage } from '../../../../src-main/inference';
import { VISUAL_FEATURES } from '../../../../src-main/shared/spec';
import { repoRoot } from '../../../helpers/paths';
import { createEngine, decodeFixture, runnerOf } from '../fixtures';

const engine = createEngine();
const runModel = runnerOf(engine);
afterAll(() => engine.dispose());

const negative = (file: string): Promise<RgbImage> =>
  decodeImage(readFileSync(join(repoRoot, 'test/fixtures/negatives', file)), { maxPixels: 50_000_000 });

/** Caption and tags of every analyze feature. */
async function describeImage(img: RgbImage): Promise<{ caption: string; tags: Map<string, number> }> {
  const { data } = await analyzePixels(img, new Set(VISUAL_FEATURES), new Set(), { runModel });
  return { caption: data.description!.captions[0]!.text, tags: new Map(data.tags!.map((t) => [t.name, t.confidence])) };
}

/** A spreadsheet-style bar chart, drawn by hand in SVG (neither plotting program drew it). */
const BAR_CHART_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500"><rect width="800" height="500" fill="white"/>
<text x="400" y="40" font-size="24" text-anchor="middle" font-family="sans-serif">Quarterly revenue by region</text>
<line x1="80" y1="440" x2="760" y2="440" stroke="black"/><line x1="80" y1="60" x2="80" y2="440" stroke="black"/>
<g font-family="sans-serif" font-size="14">
<rect x="120" y="200" width="60" height="240" fill="#4472c4"/><rect x="190" y="260" width="60" height="180" fill="#ed7d31"/>
<rect x="300" y="150" width="60" height="290" fill="#4472c4"/><rect x="370" y="230" width="60" height="210" fill="#ed7d31"/>
<rect x="480" y="120" width="60" height="320" fill="#4472c4"/><rect x="550" y="180" width="60" height="260" fill="#ed7d31"/>
<text x="185" y="465" text-anchor="middle">Q1</text><text x="365" y="465" text-anchor="middle">Q2</text><text x="545" y="465" text-anchor="middle">Q3</text>
<text x="70" y="445" text-anchor="end">0</text><text x="70" y="345" text-anchor="end">100</text><text x="70" y="245" text-anchor="end">200</text>
<rect x="640" y="80" width="14" height="14" fill="#4472c4"/><text x="660" y="92">North</text><rect x="640" y="104" width="14" height="14" fill="#ed7d31"/><text x="660" y="116">South</text>
</g></svg>`;

describe('chart references', () => {
  it('were projected with the committed drawing table, and every row has a known kind', () => {
    expect(CHART_TABLE.projection).toBe(projectionId(DRAWING_TABLE));
    expect(CHART_TABLE.dims).toBe(DRAWING_TABLE.dims);
    expect(CHART_TABLE.rows.length).toBeGreaterThanOrEqual(300);
    expect(Buffer.from(CHART_TABLE.vectors, 'base64').length).toBe(CHART_TABLE.rows.length * CHART_TABLE.dims);
    for (const kind of CHART_TABLE.kinds) expect(CHART_KIND_WORDS).toHaveProperty(kind);
  });

  it.each([
    ['chart_bars.jpg', 'a bar chart'],
    ['chart_lines.jpg', 'a line chart'],
    ['chart_scatter.jpg', 'a scatter plot'],
    ['chart_pie.jpg', 'a pie chart'],
  ])('names %s, a gnuplot render, "%s"', async (file, caption) => {
    const { caption: said, tags } = await describeImage(await negative(file));
    expect(said).toBe(caption);
    expect(tags.get('chart') ?? 0).toBeGreaterThanOrEqual(0.5);
    expect(tags.get(caption.replace(/^an? /, '')) ?? 0).toBeGreaterThanOrEqual(0.5);
  });

  it('names a bar chart drawn in SVG, and none of the classifier’s misreadings stay in its tags', async () => {
    const { data, info } = await sharp(Buffer.from(BAR_CHART_SVG)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const { caption, tags } = await describeImage({ data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 });
    expect(caption).toBe('a bar chart');
    const things = [...tags.keys()].filter((t) => !['chart', 'bar chart', 'clipart', 'drawing', 'text'].includes(t));
    expect(things).toEqual([]);
  });

  it.each(['pattern_bricks.jpg', 'text_handwritten_notebook.jpg', 'pattern_checkerboard.jpg', 'text_printed_sans_page.jpg'])(
    'does not call %s a chart (the features put some near charts; the plain-margin test does not)',
    async (file) => {
      const { caption, tags } = await describeImage(await negative(file));
      expect(caption).not.toMatch(/chart|plot/);
      expect(tags.has('chart')).toBe(false);
    },
  );

  it('calls a handwritten page near the reference charts a page of text, as its text reading is surer', async () => {
    // It passes the chart rule (a plain margin, chart 0.53, "bar chart") while its text is 1.0.
    const { caption, tags } = await describeImage(await negative('text_handwritten_script.jpg'));
    expect(caption).toBe('a page of text');
    expect(tags.get('text') ?? 0).toBeGreaterThan(0.9);
    expect(tags.has('chart')).toBe(false);
  });

  it.each(['horse_silhouette_clipart.png', 'lion_line_drawing.png', 'present_clipart.png', 'text_bw.png', 'cat_chelsea.jpg'])(
    'does not call the fixture %s a chart',
    async (file) => {
      const { caption, tags } = await describeImage(await decodeFixture(file));
      expect(caption).not.toMatch(/chart|plot/);
      expect(tags.has('chart')).toBe(false);
    },
  );
});

describe('acceptedChart', () => {
  const near = { similarity: 0.85, kind: 'bar chart', kindShare: 0.9, drawingSimilarity: 0.6, borderFlat: 0.9 };

  it('names the kind when the nearest charts agree on it, else "chart"', () => {
    expect(acceptedChart(near)?.word).toBe('bar chart');
    expect(acceptedChart({ ...near, kindShare: CHART_RULE.kindShare - 0.01 })).toMatchObject({ word: 'chart', kind: 'bar chart' });
  });

  it('refuses charts that are not near enough, nearer a drawing, or without a plain margin', () => {
    expect(acceptedChart({ ...near, similarity: CHART_RULE.minSimilarity - 0.01, drawingSimilarity: 0 })).toBeUndefined();
    expect(acceptedChart({ ...near, drawingSimilarity: near.similarity - CHART_RULE.overDrawings + 0.01 })).toBeUndefined();
    expect(acceptedChart({ ...near, borderFlat: CHART_RULE.minBorderFlat - 0.01 })).toBeUndefined();
    expect(acceptedChart(undefined)).toBeUndefined();
  });

  it('is "present" at the minimum similarity and surer with similarity', () => {
    const at = (similarity: number): number => acceptedChart({ ...near, similarity, drawingSimilarity: 0 })!.conf;
    expect(at(CHART_RULE.minSimilarity)).toBeCloseTo(0.5, 5);
    expect(at(0.8)).toBeGreaterThan(at(0.75));
    expect(at(1)).toBeLessThanOrEqual(0.9);
  });
});
