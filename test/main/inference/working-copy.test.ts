/**
 * Large photos are read in full once: the whole-image inputs and the large face windows are
 * resampled from one working copy (inference/image.ts `workingCopy`, `window-source.ts`), and the
 * analysis of a 12 MP photo agrees with that of the same photo at 0.3 MP.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels } from '../../../src-main/analysis';
import sharp from 'sharp';
import {
  adoptWorkingCopy,
  decodeImage,
  HALVE_FROM_STEP,
  halvedCopy,
  makeThumbnail,
  MIN_COPY_STEP,
  resizeRgb,
  windowSource,
  WORKING_COPY,
  workingCopy,
  type RgbImage,
} from '../../../src-main/inference';
import { enlargedJpeg } from '../../helpers/large-photos';
import { fixture } from '../../helpers/paths';
import { createEngine, runnerOf } from '../analysis/fixtures';

const load = async (bytes: Uint8Array): Promise<RgbImage> => decodeImage(bytes, { maxPixels: 50e6 });
/** A fixture enlarged as a phone photo (test/helpers/large-photos.ts), decoded. */
const enlarged = async (file: string, width: number, height: number): Promise<RgbImage> =>
  load(new Uint8Array(await enlargedJpeg(file, width, height)));

const meanAbsDiff = (a: RgbImage, b: RgbImage): number => {
  let s = 0;
  for (let i = 0; i < a.data.length; i++) s += Math.abs(a.data[i]! - b.data[i]!);
  return s / a.data.length;
};

describe('working copy of large photos', () => {
  const engine = createEngine();
  const runModel = runnerOf(engine);
  afterAll(() => engine.dispose());

  it('is the image itself up to the size limit, and one shared shrunk copy above it', async () => {
    const small = await load(readFileSync(fixture('tom_cruise.jpg')));
    expect(await workingCopy(small)).toBe(small);
    const big = await enlarged('tom_cruise.jpg', 3024, 4032);
    const copy = await workingCopy(big);
    expect(Math.max(copy.width, copy.height)).toBe(WORKING_COPY.sidePx);
    expect(copy.width / copy.height).toBeCloseTo(3024 / 4032, 2);
    expect(await workingCopy(big)).toBe(copy);
    expect(copy.lossy).toBe(true);
  });

  it("keeps a panorama's short side at 512 px (its windows are cut from it), at most half the image", async () => {
    const pano = await enlarged('colosseum.jpg', 8000, 2000);
    const copy = await workingCopy(pano);
    expect([copy.width, copy.height]).toEqual([2048, WORKING_COPY.minShortSidePx]);
    // Up to 2.5:1 the long side decides, as before.
    const wide = await enlarged('colosseum.jpg', 4000, 1600);
    expect([(await workingCopy(wide)).width, (await workingCopy(wide)).height]).toEqual([WORKING_COPY.sidePx, 512]);
    const strip = await enlarged('colosseum.jpg', 6000, 700);
    expect([(await workingCopy(strip)).width, (await workingCopy(strip)).height]).toEqual([3000, 350]);
  });

  it('is adopted from another thread when it has the right size, and makes the preview', async () => {
    const big = await enlarged('obama_portrait.jpg', 2400, 3000);
    const made = await workingCopy(big);
    // As a worker receives them: structured clones of the photo and of its copy.
    const [photo, copy] = structuredClone([big, made]);
    adoptWorkingCopy(photo, copy);
    expect((await workingCopy(photo)).data).toBe(copy.data);
    expect(() => adoptWorkingCopy(structuredClone(big), { ...copy, width: copy.width - 1 })).toThrow(/adoptWorkingCopy/);
    const small = await load(readFileSync(fixture('obama_portrait.jpg')));
    adoptWorkingCopy(small, copy); // no working copy at this size: nothing adopted
    expect(await workingCopy(small)).toBe(small);
    // The 256 px preview comes from the 1 280 px copy: it differs from a resize of every pixel by
    // little more than WebP's own loss does (measured 3.6 against 3.5 grey levels).
    const preview = await makeThumbnail(big, 256);
    expect([preview.width, preview.height]).toEqual([205, 256]);
    const everyPixel = sharp(big.data, { raw: { width: big.width, height: big.height, channels: 3 } }).resize({
      width: 256,
      height: 256,
      fit: 'inside',
    });
    const exact = await decodeImage(await everyPixel.clone().png().toBuffer(), { maxPixels: 1e6 });
    const webpLoss = meanAbsDiff(await decodeImage(await everyPixel.clone().webp({ quality: 80 }).toBuffer(), { maxPixels: 1e6 }), exact);
    expect(meanAbsDiff(await decodeImage(preview.data, { maxPixels: 1e6 }), exact)).toBeLessThan(webpLoss + 0.5);
  });

  it('shrinks from the copy to within a grey level of the full-size resize', async () => {
    const big = await enlarged('family_six_faces.jpg', 4032, 3024);
    const viaCopy = await resizeRgb(big, 512, 384, { fit: 'fill', kernel: 'linear' });
    // The same resize straight from every pixel (a cover fit of the same aspect is a plain shrink, not from the copy).
    const direct = await resizeRgb(big, 512, 384, { fit: 'cover', kernel: 'linear' });
    expect(viaCopy.width).toBe(512);
    expect(meanAbsDiff(viaCopy, direct)).toBeLessThan(1);
  });

  it('samples a large face window from the copy and a small one from the photo', async () => {
    const big = await enlarged('tom_cruise.jpg', 3024, 4032);
    const copy = await workingCopy(big);
    const face = { cx: 1500, cy: 1600, size: 1600, angleRad: 0.1 };
    // 508 copy px for 224 input px: from the copy, not halved (below HALVE_FROM_STEP × 224).
    const fromCopy = await windowSource(big, face, 224);
    expect(fromCopy.img === copy, 'sampled from the working copy').toBe(true);
    expect(fromCopy.win.size).toBeGreaterThanOrEqual(MIN_COPY_STEP * 224);
    expect(fromCopy.win.size).toBeLessThan(HALVE_FROM_STEP * 224);
    expect(fromCopy.win.cx).toBeCloseTo((1500 * copy.width) / big.width, 6);
    expect(fromCopy.win.angleRad).toBe(0.1);
    // Into a 192 px input (2.6 copy px per input px) the same window is sampled from the copy's half-size copy.
    const halved = await windowSource(big, face, 192);
    expect(halved.img === halvedCopy(copy), "sampled from the copy's half-size copy").toBe(true);
    expect(halved.win.size).toBeCloseTo(fromCopy.win.size / 2, 6);
    // A small face of a large photo: the photo itself, never halved.
    const small = await windowSource(big, { ...face, size: 500 }, 192);
    expect(small.img === big, 'sampled from the photo').toBe(true);
    expect(small.win.size).toBe(500);
  });

  it('gives a 12 MP photo the caption, faces and image type of the same photo at 0.3 MP', async () => {
    const features = new Set(['Tags', 'Description', 'Faces', 'ImageType'] as const);
    const small = await load(readFileSync(fixture('family_six_faces.jpg')));
    const big = await enlarged('family_six_faces.jpg', 4032, 3024);
    const a = (await analyzePixels(small, features, new Set(), { runModel })).data;
    const b = (await analyzePixels(big, features, new Set(), { runModel })).data;
    expect(b.description!.captions[0]!.text).toBe(a.description!.captions[0]!.text);
    expect(b.imageType).toEqual(a.imageType);
    expect(b.faces!.map((f) => f.gender)).toEqual(a.faces!.map((f) => f.gender));
    b.faces!.forEach((f, i) => expect(Math.abs(f.age - a.faces![i]!.age), `age of face ${i}`).toBeLessThanOrEqual(5));
  });
});
