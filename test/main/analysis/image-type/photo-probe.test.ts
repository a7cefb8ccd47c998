// The photo probe (analysis/image-type/photo-probe.ts, a logistic regression on the classifier's
// pooled features) on real images through the real models, and what it changes in the image
// type: photographs whose flat backdrop or sky the pixel terms read as synthetic are photos again,
// and drawings stay clip art.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels, classifyWithFeatures, imageTypeEvidence, measurePixels } from '../../../../src-main/analysis';
import { contentProbabilities, runContentNet } from '../../../../src-main/analysis/content-net';
import { classifyImageType, PHOTO_PROBE, photoProbability } from '../../../../src-main/analysis/image-type';
import { decodeImage, type RgbImage } from '../../../../src-main/inference';
import type { VisualFeature } from '../../../../src-main/shared/spec';
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

/** The face-free fixtures by manifest subject. */
const negatives = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/negatives/manifest.json'), 'utf8')) as {
  file: string;
  category: string;
  subject: string;
}[];

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
});
