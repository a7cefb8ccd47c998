// The photo probe (analysis/image-type/photo-probe.ts, a logistic regression on the classifier's
// pooled features) on real images through the real models, and what it changes in the image
// type: photographs whose flat backdrop or sky the pixel terms read as synthetic are photos again,
// and drawings stay clip art.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels, classifyWithFeatures, imageTypeEvidence, measurePixels } from '../../../../src-main/analysis';
import { contentProbabilities, runContentNet } from '../../../../src-main/analysis/content-net';
import { classifyImageType, PHOTO_PROBE, photoProbability } from '../../../../src-main/analysis/image-type';
import { decodeImage, type RgbImage } from '../../../../src-main/inference';
import type { VisualFeature } from '../../../../src-main/shared/spec';
import { onBackdrop } from '../../../eval/backdrops';
import { negativeEntries, negativeLabel } from '../../../eval/fixture-labels';
import { thumbnailCopy } from '../../../eval/thumbnail-copy';
import { repoRoot } from '../../../helpers/paths';
import { renderDrawing } from '../../../helpers/render-drawing';
import { createEngine, decodeFixture, manifest, runnerOf } from '../fixtures';

const engine = createEngine();
const runModel = runnerOf(engine);
afterAll(() => engine.dispose());
const features = new Set<VisualFeature>(['ImageType', 'Tags', 'Description']);

const load = (dir: string, file: string): Promise<RgbImage> =>
  decodeImage(new Uint8Array(readFileSync(join(repoRoot, 'test/fixtures', dir, file))), { maxPixels: 50e6 });
const probe = async (img: RgbImage): Promise<number> => photoProbability((await classifyWithFeatures(img, runModel)).features!);

/** clipArtType from the pixel terms and the NSFW net alone, as before the probe. */
async function pixelsOnlyType(img: RgbImage): Promise<number> {
  const [p, nsfw] = await Promise.all([measurePixels(img), runContentNet(img, runModel).then(contentProbabilities)]);
  return classifyImageType(imageTypeEvidence(p, nsfw.Drawing)).clipArtType;
}

/**
 * The image as a PNG whose backdrop is transparent: alpha ramps with the distance (RGB levels)
 * from the mean colour of its four corners (8 × 8 px each), from 20 (clear) to 40 (opaque).
 */
async function keyedOut(img: RgbImage): Promise<Uint8Array> {
  const { width: w, height: h, data } = img;
  const backdrop = [0, 0, 0];
  const corners = [
    [0, 0],
    [w - 8, 0],
    [0, h - 8],
    [w - 8, h - 8],
  ] as const;
  for (const [cx, cy] of corners)
    for (let y = cy; y < cy + 8; y++)
      for (let x = cx; x < cx + 8; x++) for (let c = 0; c < 3; c++) backdrop[c]! += data[(y * w + x) * 3 + c]! / 256;
  const rgba = Buffer.alloc(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const d = Math.hypot(data[i * 3]! - backdrop[0]!, data[i * 3 + 1]! - backdrop[1]!, data[i * 3 + 2]! - backdrop[2]!);
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = data[i * 3 + c]!;
    rgba[i * 4 + 3] = Math.max(0, Math.min(255, (d - 20) * 12.75));
  }
  return new Uint8Array(
    await sharp(rgba, { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

/** The face-free fixtures by manifest subject. */
const negatives = negativeEntries();

describe('photo probe', () => {
  it('is a logistic regression over the classifier’s 1 280 pooled features', () => {
    expect(PHOTO_PROBE.features).toBe(1280);
    expect(PHOTO_PROBE.weights).toHaveLength(1280);
    expect(PHOTO_PROBE.weights.every(Number.isFinite)).toBe(true);
    expect(PHOTO_PROBE.weights.filter((w) => w !== 0).length).toBeGreaterThan(1000);
  });

  it('tells the fixtures’ photographs from their drawings', async () => {
    // Neither set was trained on (docs/analysis.md "ImageType").
    const photos = manifest.filter((m) => m.truth.clipArt === false && m.file !== 'text_bw.png');
    const drawings = manifest.filter((m) => m.truth.clipArt === true);
    for (const m of photos) expect(await probe(await decodeFixture(m.file)), m.file).toBeGreaterThanOrEqual(0.75);
    for (const m of drawings) expect(await probe(await decodeFixture(m.file)), m.file).toBeLessThan(0.6);
    for (const file of ['arts4apps_chicken.jpg', 'arts4apps_man.jpg'])
      expect(await probe(await load('drawings', file)), file).toBeLessThan(0.2);
    // A white balloon drawn with soft shading is the nearest to a photo (≈ 0.5): still clip art (drawings.test.ts).
    for (const file of ['balloon-white-aj.svg', 'clock07.svg', 'ukraine.svg'])
      expect(await probe(await renderDrawing(file)), file).toBeLessThan(0.6);
  });

  it('makes product shots on plain backdrops photos, named by the classifier, with no setting', async () => {
    // The pixel terms read the flat backdrop as synthetic (clip art 2–3), and smooth metal or
    // lacquer leaves the cut-out test no texture: "a clip art image" before the probe.
    for (const [file, word] of [
      ['product_hammer.jpg', 'hammer'],
      ['product_screwdriver.jpg', 'screwdriver'],
      ['product_measuring_tape.jpg', 'ruler'],
      ['product_yellow_perch.jpg', 'fish'],
    ] as const) {
      const img = await load('scenes', file);
      expect(await pixelsOnlyType(img), file).toBeGreaterThanOrEqual(2);
      expect(await probe(img), file).toBeGreaterThanOrEqual(0.75);
      const { data } = await analyzePixels(img, features, new Set(), { runModel });
      expect(data.imageType!.clipArtType, file).toBeLessThan(2);
      // ImageType alone runs the classifier for the probe too.
      const alone = await analyzePixels(img, new Set<VisualFeature>(['ImageType']), new Set(), { runModel });
      expect(alone.data.imageType, file).toEqual(data.imageType);
      const caption = data.description!.captions[0]!.text;
      expect(caption, file).toContain(word);
      // The backdrop is a page, not snow, sky or a setting.
      expect(caption, file).not.toMatch(/ (in the snow|outdoors|in a grassy area|indoors|at night)$/);
    }
  });

  it('reads a thing photographed on a dark backdrop as a photo, as on a white page', async () => {
    // The fixtures' product shots with their backdrop keyed out, on black and dark grey as a web
    // page's 320 px JPEG. Trained on white pages only, the probe had the tweezers at 0.27–0.28
    // and the measuring tape at 0.71 (mean 0.77; now 0.56–0.60, 0.88, 0.89); it learns from stamps on backdrops
    // too (tooling/image-type/probe-data.ts), none of these images among them.
    const p: number[] = [];
    for (const file of [
      'product_hammer.jpg',
      'product_measuring_tape.jpg',
      'product_yellow_perch.jpg',
      'product_screwdriver.jpg',
      'tool_tweezer.jpg',
    ]) {
      const cutOut = await keyedOut(await load('scenes', file));
      for (const backdrop of ['#000000', '#303030']) {
        const onIt = await onBackdrop(cutOut, backdrop);
        p.push(await probe(onIt));
        expect(p.at(-1), `${file} on ${backdrop}`).toBeGreaterThanOrEqual(0.5);
      }
    }
    expect(p.reduce((a, b) => a + b) / p.length).toBeGreaterThanOrEqual(0.8);
  });

  it('lets a statue against a flat sky keep its outdoor setting: the sky tops it, no page surrounds it', async () => {
    // Clip art before the probe (the JPEG-smoothed sky is exactly flat); the band's bottom is rock.
    for (const file of ['statue_christTheRedeemer.jpg', 'statue_statueOfLiberty.jpg']) {
      const img = await load('negatives', file);
      expect(await pixelsOnlyType(img), file).toBeGreaterThanOrEqual(2);
      const { data } = await analyzePixels(img, features, new Set(), { runModel });
      expect(data.imageType!.clipArtType, file).toBeLessThan(2);
      expect(data.description!.captions[0]!.text, file).toMatch(/ outdoors$/);
    }
  });

  it('keeps the face-free photographs photos and their cartoons, charts and patterns clip art', async () => {
    let photosRated = 0;
    for (const e of negatives) {
      const photo = /\bphotograph\b/.test(e.subject);
      const drawn = ['cartoon', 'chart', 'pattern'].includes(e.category) && !/noise|plasma/.test(e.subject);
      if (!photo && !drawn) continue;
      const img = await load('negatives', e.file);
      const before = await pixelsOnlyType(img);
      const { data } = await analyzePixels(img, features, new Set(), { runModel });
      if (photo) {
        if (before >= 2) photosRated++;
        expect(data.imageType!.clipArtType, e.file).toBeLessThan(2);
      } else if (before >= 2) expect(data.imageType!.clipArtType, e.file).toBeGreaterThanOrEqual(2);
    }
    // Cut-out stamps enlarged and JPEG-coded, statues against a flat sky: clip art before.
    expect(photosRated).toBeGreaterThanOrEqual(10);
  });

  it('keeps thumbnails of the face-free photographs photos', async () => {
    // Shrunk and JPEG-coded (as a server's thumbnail), a photo keeps its texture and the probe its
    // verdict: no pixel rule may read the blur of a small JPEG as a drawing's fills. (A probe
    // retrained with thumbnails of drawings, not kept, passed this too but rated GCompris product
    // shots clip art, which eval:unseen measures: docs/analysis.md "Thumbnails".)
    const drawn: string[] = [];
    let rated = 0;
    for (const e of negatives) {
      if (negativeLabel(e) !== 'photo') continue;
      const full = await load('negatives', e.file);
      for (const side of [96, 64]) {
        const { data } = await analyzePixels(await thumbnailCopy(full, side, 'jpeg'), features, new Set(), { runModel });
        rated++;
        if (data.imageType!.clipArtType >= 2) drawn.push(`${e.file} ${side} px`);
      }
    }
    expect(rated).toBe(130);
    expect(drawn).toEqual([]);
  });
});
