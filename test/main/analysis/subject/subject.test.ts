// The subject segmenter (real converted DeepLabV3, real fixtures): regions and the main subject's
// box, its own colour as the foreground colour, and the gate that keeps it off people photos.
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels, classifyImage, detectObjects } from '../../../../src-main/analysis';
import { maskedColorName } from '../../../../src-main/analysis/color/foreground';
import { segmentImage, subjectFromMask, wantsSubject, VOC21 } from '../../../../src-main/analysis/subject';
import type { VisualFeature } from '../../../../src-main/shared/spec';
import { createEngine, decodeFixture, runnerOf } from '../fixtures';

const engine = createEngine();
const runModel = runnerOf(engine);
afterAll(() => engine.dispose());

describe('subject segmentation', () => {
  it('finds the cat: a region filling most of the photo, its box inside the image', async () => {
    const img = await decodeFixture('cat_chelsea.jpg');
    const mask = await segmentImage(img, runModel);
    expect([mask.width, mask.height]).toEqual([513, 513]);
    expect(mask.classes.reduce((m, k) => Math.max(m, k), 0)).toBeLessThan(VOC21.length);
    const s = subjectFromMask(mask, img);
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
  });

  it('runs only when the detector or the classifier sees a VOC thing other than a person', async () => {
    const cat = await decodeFixture('cat_chelsea.jpg');
    expect(wantsSubject(await detectObjects(cat, runModel), await classifyImage(cat, runModel))).toBe(true);
    const portrait = await decodeFixture('tom_cruise.jpg');
    expect(wantsSubject(await detectObjects(portrait, runModel), await classifyImage(portrait, runModel))).toBe(false);
    const rocket = await decodeFixture('rocket_launchpad.jpg');
    expect(wantsSubject(await detectObjects(rocket, runModel), await classifyImage(rocket, runModel))).toBe(false);
  });

  it("gives analyze the cat's colour as the foreground and names the cat", async () => {
    const img = await decodeFixture('cat_chelsea.jpg');
    const features = new Set<VisualFeature>(['Color', 'Description', 'Tags']);
    const { data, timingsMs } = await analyzePixels(img, features, new Set(), { runModel });
    expect(timingsMs['subject']).toBeGreaterThan(0);
    const s = subjectFromMask(await segmentImage(img, runModel), img);
    expect(data.color!.dominantColorForeground).toBe(s.foreground);
    expect(data.color!.dominantColors).toContain(s.foreground);
    expect(data.description!.captions[0]!.text).toMatch(/\bcat\b/);
    // No segmenter on a portrait: the faces and person boxes give its subject.
    const portrait = await analyzePixels(await decodeFixture('tom_cruise.jpg'), features, new Set(), { runModel });
    expect(portrait.timingsMs['subject']).toBeUndefined();
  });
});
