// A blank image (one flat colour: an "image not available" placeholder, an empty render, a black
// frame) names nothing. Before, a black or a red page was "a clip art image of a flag" with the
// tags flag, decoration and design at 0.9: its nearest reference drawings were renders that came
// out empty. Real models, through the analyze service, on images made here as PNG and JPEG files.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { COCO80, IMAGENET_HIERARCHY } from '../../../../src-main/analysis';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { BLANK_UNIFORM } from '../../../../src-main/analysis/rules/bands';
import { FEATURELESS_EDGES, withoutGroundlessThings } from '../../../../src-main/analysis/rules/blank';
import type { DrawingVote } from '../../../../src-main/analysis/drawings/knn';
import { decodeImage } from '../../../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../../../src-main/intake';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { plainEvidence } from '../../../helpers/evidence';
import { fixture } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

const engine = createEngine();
const service = createAnalyzeService({ runModel: runnerOf(engine), loader: createImageLoader(intakeOptions('desktop')) });
const dir = mkdtempSync(join(tmpdir(), 'picscan-blank-'));
afterAll(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A flat `colour` image of w×h px as a file (`.png` or `.jpg`). */
async function flatFile(name: string, colour: string, w = 400, h = 300): Promise<string> {
  const s = sharp({ create: { width: w, height: h, channels: 3, background: colour } });
  const file = join(dir, name);
  writeFileSync(file, await (name.endsWith('.jpg') ? s.jpeg({ quality: 70 }) : s.png()).toBuffer());
  return file;
}

/** Every word a model could name a thing with: COCO labels and ImageNet names, display words and general tags. */
const THING_WORDS = new Set([
  ...COCO80,
  ...IMAGENET_HIERARCHY.classes.flatMap((c) => [c.name, c.display ?? c.name, ...c.tags]),
  'flag',
  'decoration',
  'design',
]);

/** Tags a blank image has no grounds for: scene words and the drawing tag. */
const SCENE_AND_DRAWING_WORDS = new Set(['night', 'sky', 'grass', 'tree', 'water', 'snow', 'outdoor', 'indoor', 'drawing']);

async function analysed(file: string) {
  const { data } = await service.analyze(file, { features: ['Tags', 'Description', 'Categories', 'Color'] });
  return data;
}

describe('a blank image', () => {
  it.each([
    ['black.png', '#000000', 'black'],
    ['white.jpg', '#ffffff', 'white'],
    ['red.png', '#d01010', 'red'],
    ['blue.jpg', '#3060c0', 'blue'],
    ['grey.png', '#808080', 'gray'],
  ])('%s (%s) is "a blank %s image", tagged blank, with no thing named', async (name, colour, word) => {
    const data = await analysed(await flatFile(name, colour));
    expect(data.description!.captions[0]!.text).toBe(`a blank ${word} image`);
    const tags = new Map(data.tags!.map((t) => [t.name, t.confidence]));
    expect(tags.get('blank')).toBeGreaterThanOrEqual(0.5);
    expect([...tags.keys()].filter((t) => THING_WORDS.has(t))).toEqual([]);
    // Nor a scene or a drawing: a black frame was tagged night (0.45), a flat page drawing (0.55).
    expect([...tags.keys()].filter((t) => SCENE_AND_DRAWING_WORDS.has(t))).toEqual([]);
    expect(data.categories!.map((c) => c.name)).not.toContain('abstract_shape');
  });

  it('a small image (64 px) of one colour is blank too', async () => {
    const data = await analysed(await flatFile('small.jpg', '#e02020', 64, 64));
    expect(data.description!.captions[0]!.text).toBe('a blank red image');
  });

  // Not blank, but nothing drawn: its nearest reference drawings were the same flat renders, and
  // a blue-to-white gradient was "a clip art image of a flag" (0.9).
  it.each([
    ['blue to white', '#1030e0', '#ffffff'],
    ['black to grey', '#000000', '#909090'],
  ])('a smooth gradient (%s) is not blank and names nothing', async (_, from, to) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
    const file = join(dir, `gradient-${from.slice(1)}.png`);
    writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
    const data = await analysed(file);
    expect(data.description!.captions[0]!.text).not.toMatch(/blank/);
    expect(data.tags!.map((t) => t.name).filter((t) => THING_WORDS.has(t))).toEqual([]);
  });

  // A drawing of faint hairlines has no edge pixel once shrunk to 64 px either, but it is no ramp:
  // 90 % of its pixels are its paper, one colour bin. Its reference drawings still speak for it
  // (six thin star outlines of the Open Clip Art sample lost their names at 64 px).
  it('a hairline drawing shrunk to 64 px keeps its drawing votes; a gradient does not', async () => {
    const points = Array.from({ length: 34 }, (_, i) => {
      const r = i % 2 ? 60 : 120;
      const a = (i * Math.PI) / 17;
      return `${128 + r * Math.sin(a)},${128 - r * Math.cos(a)}`;
    }).join(' ');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="100%" height="100%" fill="white"/><polygon points="${points}" fill="none" stroke="#888" stroke-width="0.5"/></svg>`;
    const small = await sharp(Buffer.from(svg)).resize(64, 64, { kernel: 'lanczos3' }).png().toBuffer();
    const star = await measurePixels(await decodeImage(new Uint8Array(small), { maxPixels: 5e7 }));
    expect(star.scene.edges).toBeLessThan(FEATURELESS_EDGES); // no edge pixel: the old test dropped its votes
    const vote = { label: 0, word: 'star', share: 0.8, similarity: 0.9, hypernyms: [] } as unknown as DrawingVote;
    const kept = withoutGroundlessThings({
      ...plainEvidence(),
      scene: star.scene,
      colorBins90: star.texture.colorBins90,
      drawingVotes: [vote],
    });
    expect(kept.drawingVotes).toEqual([vote]);
    const ramp = new Uint8Array(64 * 64 * 3).map((_, i) => (i % 3 === 2 ? 255 : Math.round((Math.floor(i / 192) * 255) / 63)));
    const rampPng = await sharp(ramp, { raw: { width: 64, height: 64, channels: 3 } })
      .png()
      .toBuffer();
    const gradient = await measurePixels(await decodeImage(new Uint8Array(rampPng), { maxPixels: 5e7 }));
    const dropped = withoutGroundlessThings({
      ...plainEvidence(),
      scene: gradient.scene,
      colorBins90: gradient.texture.colorBins90,
      drawingVotes: [vote],
    });
    expect(dropped.drawingVotes).toBeUndefined();
  });

  it('is not what a page with a small mark, a gradient or a photo is', async () => {
    // A 30 px square on a 600 px page: 0.25 % of it, above what the blank test lets through.
    const page = join(dir, 'mark.png');
    await sharp({ create: { width: 600, height: 600, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: 30, height: 30, channels: 3, background: '#000000' } }, left: 300, top: 300 }])
      .png()
      .toFile(page);
    const ramp = join(dir, 'ramp.png');
    const grad = new Uint8Array(400 * 300 * 3).map((_, i) => Math.round((Math.floor(i / 3) % 400) * (255 / 399)));
    await sharp(grad, { raw: { width: 400, height: 300, channels: 3 } })
      .png()
      .toFile(ramp);
    // A photo at 15 % exposure: its RGB levels span ≈ 40, though in Lab all of it lies within a
    // few L* units (a Lab tolerance called it blank and dropped its cat).
    const dim = join(dir, 'dim.jpg');
    await sharp(fixture('cat_chelsea.jpg')).linear(0.15, 0).jpeg({ quality: 90 }).toFile(dim);
    const dimData = await analysed(dim);
    expect(dimData.tags!.map((t) => t.name)).toContain('cat');
    for (const file of [page, ramp, dim, fixture('text_bw.png'), fixture('cat_chelsea.jpg')]) {
      const data = await analysed(file);
      expect(data.description!.captions[0]!.text, file).not.toMatch(/blank/);
      expect(
        data.tags!.map((t) => t.name),
        file,
      ).not.toContain('blank');
      const img = await decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 5e7 });
      expect((await measurePixels(img)).scene.uniform, file).toBeLessThan(BLANK_UNIFORM);
    }
  });
});
