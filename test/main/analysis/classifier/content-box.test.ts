// A subject on a plain background (a product shot with wide margins, a small picture on a large
// canvas) is classified cut out, at the scale the classifier learnt: real model, fixture photos
// composed on canvases here.
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels, classifyImage, IMAGENET_HIERARCHY } from '../../../../src-main/analysis';
import { subjectWord } from '../../../../src-main/analysis/classifier';
import { CONTENT_BOX, contentBox } from '../../../../src-main/analysis/classifier/content-box';
import type { RgbImage } from '../../../../src-main/inference';
import type { VisualFeature } from '../../../../src-main/shared/spec';
import { createEngine, decodeFixture, runnerOf } from '../fixtures';

const engine = createEngine();
const runModel = runnerOf(engine);
afterAll(() => engine.dispose());

/** `img` placed at (left, top) on a `width × height` canvas of one colour. */
async function onCanvas(
  img: RgbImage,
  width: number,
  height: number,
  left: number,
  top: number,
  background = '#ffffff',
): Promise<RgbImage> {
  const { data, info } = await sharp({ create: { width, height, channels: 3, background } })
    .composite([{ input: Buffer.from(img.data), raw: { width: img.width, height: img.height, channels: 3 }, left, top }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

const topWord = async (img: RgbImage): Promise<string> =>
  subjectWord(IMAGENET_HIERARCHY.classes[(await classifyImage(img, runModel))[0]!.index]!);

describe('content box', () => {
  it('finds a photo on a large white canvas, with a margin, in image px', async () => {
    const cat = await decodeFixture('cat_chelsea.jpg');
    const canvas = await onCanvas(cat, cat.width * 5, cat.height * 5, cat.width * 3, cat.height);
    const box = (await contentBox(canvas))!;
    expect(box).not.toBeNull();
    const margin = CONTENT_BOX.margin * Math.max(cat.width, cat.height);
    // The paste lies inside the box, and the box is no more than the margin around it, give or
    // take a few pixels of the copy the box is measured on.
    const slack = (4 * canvas.width) / CONTENT_BOX.sidePx;
    expect(box.left).toBeLessThanOrEqual(cat.width * 3);
    expect(box.top).toBeLessThanOrEqual(cat.height);
    expect(box.left + box.width).toBeGreaterThanOrEqual(cat.width * 4);
    expect(box.top + box.height).toBeGreaterThanOrEqual(cat.height * 2);
    expect(box.left).toBeGreaterThanOrEqual(cat.width * 3 - margin - slack);
    expect(box.left + box.width).toBeLessThanOrEqual(cat.width * 4 + margin + slack);
  });

  it('works on a dark background too, and leaves photos, blank images and full frames alone', async () => {
    const coffee = await decodeFixture('coffee_cup.jpg');
    expect(await contentBox(await onCanvas(coffee, coffee.width * 4, coffee.height * 4, 100, 900, '#101010'))).not.toBeNull();
    for (const photo of ['colosseum.jpg', 'cat_chelsea.jpg', 'family_six_faces.jpg'])
      expect(await contentBox(await decodeFixture(photo))).toBeNull();
    expect(await contentBox(await onCanvas(coffee, 800, 600, 0, 0).then((c) => ({ ...c, data: c.data.fill(255) })))).toBeNull();
    // The cup with a thin white border: the content already fills the frame.
    expect(await contentBox(await onCanvas(coffee, coffee.width + 40, coffee.height + 40, 20, 20))).toBeNull();
  });

  it('lets the classifier and the caption name a small photo on a large canvas as they name the photo itself', async () => {
    const features = new Set<VisualFeature>(['Tags', 'Description']);
    for (const [file, word] of [
      ['cat_chelsea.jpg', 'cat'],
      ['coffee_cup.jpg', 'espresso'],
    ] as const) {
      const img = await decodeFixture(file);
      expect(await topWord(img)).toBe(word);
      const canvas = await onCanvas(img, img.width * 5, img.height * 5, img.width * 2, img.height * 3);
      expect(await topWord(canvas)).toBe(word);
      const data = (await analyzePixels(canvas, features, new Set(), { runModel })).data;
      expect(data.tags!.find((t) => t.name === word)?.confidence ?? 0).toBeGreaterThanOrEqual(0.5);
    }
  });
});
