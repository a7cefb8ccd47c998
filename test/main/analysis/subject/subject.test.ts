// The subject segmenter (real converted DeepLabV3, real fixtures): regions and the main subject's
// box, its own colour as the foreground colour, and the gate that keeps it off people photos.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels, classifyImage, detectObjects, measurePixels } from '../../../../src-main/analysis';
import { decodeImage } from '../../../../src-main/inference/image';
import { maskedColorName } from '../../../../src-main/analysis/color/foreground';
import { CLIP_ART_TYPE } from '../../../../src-main/analysis/rules';
import { seenVocThings, segmentImage, subjectFromMask, VOC21 } from '../../../../src-main/analysis/subject';
import type { VisualFeature } from '../../../../src-main/shared/spec';
import { sideBySidePng } from '../../../helpers/large-photos';
import { fixture } from '../../../helpers/paths';
import { createEngine, decodeFixture, runnerOf } from '../fixtures';

const engine = createEngine();
const runModel = runnerOf(engine);
afterAll(() => engine.dispose());

describe('subject segmentation', () => {
  it('finds the cat: a region filling most of the photo, its box inside the image', async () => {
    const img = await decodeFixture('cat_chelsea.jpg');
    const mask = await segmentImage(img, runModel);
    // The manifest's run size of the free-spatial graph (source size 513; docs/models.md).
    expect([mask.width, mask.height]).toEqual([321, 321]);
    expect(mask.classes.reduce((m, k) => Math.max(m, k), 0)).toBeLessThan(VOC21.length);
    const s = subjectFromMask(mask, img, new Set(['cat']));
    expect(s.main?.label).toBe('cat');
    expect(s.main!.share).toBeGreaterThan(0.6);
    expect(s.roi).toEqual(s.main!.box);
    const b = s.main!.box;
    expect(b.left).toBeGreaterThanOrEqual(0);
    expect(b.top).toBeGreaterThanOrEqual(0);
    expect(b.left + b.width).toBeLessThanOrEqual(img.width + 1e-6);
    expect(b.top + b.height).toBeLessThanOrEqual(img.height + 1e-6);
    expect(b.width * b.height).toBeGreaterThan(0.6 * img.width * img.height);
    // Its colour is read from the cat's own pixels only: the complement (the background) differs.
    const cat = VOC21.indexOf('cat');
    expect(s.foreground).toBe(maskedColorName(img, { ...mask, inside: (i) => mask.classes[i] === cat }));
    expect(maskedColorName(img, { ...mask, inside: () => false })).toBeUndefined();
    // A region of a thing neither model saw is no main subject (DeepLab knows only 20 things).
    const unseen = subjectFromMask(mask, img, new Set(['dog']));
    expect(unseen.regions.map((r) => r.label)).toContain('cat');
    expect([unseen.main, unseen.roi, unseen.foreground]).toEqual([undefined, undefined, undefined]);
  });

  it('runs only when the detector or the classifier sees a VOC thing other than a person', async () => {
    const seen = async (file: string) => {
      const img = await decodeFixture(file);
      return [...seenVocThings(await detectObjects(img, runModel), await classifyImage(img, runModel))];
    };
    expect(await seen('cat_chelsea.jpg')).toEqual(['cat']);
    expect(await seen('tom_cruise.jpg')).toEqual([]);
    expect(await seen('rocket_launchpad.jpg')).toEqual([]);
  });

  it('skips the segmenter on drawings, whose regions would not count: the horse silhouette clip art', async () => {
    const img = await decodeFixture('horse_silhouette_clipart.png');
    // The detector sees the horse, so only the image type stops the segmenter.
    expect([...seenVocThings(await detectObjects(img, runModel), await classifyImage(img, runModel))]).toContain('horse');
    const features = new Set<VisualFeature>(['Color', 'Description', 'ImageType', 'Tags']);
    const { data, timingsMs } = await analyzePixels(img, features, new Set(), { runModel });
    expect(data.imageType!.clipArtType).toBeGreaterThanOrEqual(CLIP_ART_TYPE.clipArt);
    expect(timingsMs['subject']).toBeUndefined();
    expect(timingsMs['pixels']).toBeGreaterThan(0);
  });

  it("gives analyze the cat's colour as the foreground and names the cat", async () => {
    const img = await decodeFixture('cat_chelsea.jpg');
    const features = new Set<VisualFeature>(['Color', 'Description', 'Tags']);
    const { data, timingsMs } = await analyzePixels(img, features, new Set(), { runModel });
    expect(timingsMs['subject']).toBeGreaterThan(0);
    const s = subjectFromMask(await segmentImage(img, runModel), img, new Set(['cat']));
    expect(data.color!.dominantColorForeground).toBe(s.foreground);
    expect(data.color!.dominantColors).toContain(s.foreground);
    expect(data.description!.captions[0]!.text).toMatch(/\bcat\b/);
    // No segmenter on a portrait: the faces and person boxes give its subject.
    const portrait = await analyzePixels(await decodeFixture('tom_cruise.jpg'), features, new Set(), { runModel });
    expect(portrait.timingsMs['subject']).toBeUndefined();
  });

  it('reads the foreground colour off the subject, not off the centre of the frame', async () => {
    // The cat photo pasted into the lower left corner of the colosseum photo (stretched to
    // 1200×800): the centre-weighted guess sees the white stone, the mask the brown cat.
    const png = await sharp(readFileSync(fixture('colosseum.jpg')))
      .resize(1200, 800, { fit: 'fill' })
      .composite([{ input: readFileSync(fixture('cat_chelsea.jpg')), left: 0, top: 300 }])
      .png()
      .toBuffer();
    const img = await decodeImage(new Uint8Array(png), { maxPixels: 50_000_000 });
    const features = new Set<VisualFeature>(['Color', 'Description', 'ImageType']);
    const { data } = await analyzePixels(img, features, new Set(), { runModel });
    expect(data.imageType!.clipArtType).toBe(0);
    expect((await measurePixels(img)).color.dominantColorForeground).toBe('White');
    expect(data.color!.dominantColorForeground).toBe('Brown');
    expect(data.description!.captions[0]!.text).toMatch(/\bcat\b/);
  });
});

describe('the subject of a panorama', () => {
  // Squeezed into the 321 px square, the tripled cat was 26 % cat and 23 % potted plant and the
  // tripled family no person at all; segmented at their own aspect they read as the single photos.
  it.each([
    ['cat_chelsea.jpg', 'cat', 0.7],
    ['family_six_faces.jpg', 'person', 0.55],
  ] as const)('%s three times side by side: %s, segmented in a frame of its own aspect', async (file, label, share) => {
    const img = await decodeImage(await sideBySidePng(file, 3), { maxPixels: 50_000_000 });
    const mask = await segmentImage(img, runModel);
    expect(mask.width / mask.height).toBeGreaterThan(3.5);
    expect((mask.width - 1) % 16).toBe(0);
    expect(mask.width * mask.height).toBeLessThan(1.2 * 321 * 321);
    const s = subjectFromMask(mask, img, new Set([label]));
    expect(s.main?.label).toBe(label);
    expect(s.main!.share).toBeGreaterThan(share);
    expect(s.regions.filter((r) => r.label !== label).reduce((m, r) => Math.max(m, r.share), 0)).toBeLessThan(0.1);
  });
});
