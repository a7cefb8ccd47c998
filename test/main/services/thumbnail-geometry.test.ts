import { describe, expect, it } from 'vitest';
import { centreCrop, cropSize, smartCrop, type CropRect, type WeightedBox } from '../../../src-main/services/thumbnail/crop-geometry';
import { saliencyBox } from '../../../src-main/services/thumbnail/saliency';

const contains = (crop: CropRect, b: WeightedBox): boolean =>
  b.left >= crop.left && b.top >= crop.top && b.left + b.width <= crop.left + crop.width && b.top + b.height <= crop.top + crop.height;

const inside = (crop: CropRect, w: number, h: number): boolean =>
  crop.left >= 0 && crop.top >= 0 && crop.left + crop.width <= w && crop.top + crop.height <= h;

describe('crop size and centre crop', () => {
  it('takes the largest rectangle of the target aspect ratio', () => {
    expect(cropSize({ imageWidth: 400, imageHeight: 300, targetWidth: 100, targetHeight: 100 })).toEqual({ width: 300, height: 300 });
    expect(cropSize({ imageWidth: 400, imageHeight: 300, targetWidth: 200, targetHeight: 50 })).toEqual({ width: 400, height: 100 });
    expect(cropSize({ imageWidth: 400, imageHeight: 300, targetWidth: 40, targetHeight: 30 })).toEqual({ width: 400, height: 300 });
    expect(cropSize({ imageWidth: 7, imageHeight: 3, targetWidth: 1, targetHeight: 1024 })).toEqual({ width: 1, height: 3 });
  });

  it('centres the crop', () => {
    expect(centreCrop({ imageWidth: 400, imageHeight: 300, targetWidth: 100, targetHeight: 100 })).toEqual({
      left: 50,
      top: 0,
      width: 300,
      height: 300,
    });
    expect(centreCrop({ imageWidth: 400, imageHeight: 300, targetWidth: 300, targetHeight: 100 })).toEqual({
      left: 0,
      top: 83,
      width: 400,
      height: 133,
    });
  });
});

describe('smart crop', () => {
  const wide = { imageWidth: 1000, imageHeight: 400, targetWidth: 200, targetHeight: 200 };

  it('without regions is the centre crop', () => {
    expect(smartCrop(wide, [])).toEqual(centreCrop(wide));
    expect(smartCrop(wide, [{ left: -50, top: 0, width: 40, height: 40, weight: 1 }])).toEqual(centreCrop(wide));
  });

  it('keeps a face at the right edge whole in a tall crop of a wide image', () => {
    const face = { left: 930, top: 100, width: 70, height: 90, weight: 1 };
    const crop = smartCrop(wide, [face]);
    expect(crop).toEqual({ left: 600, top: 0, width: 400, height: 400 });
    expect(contains(crop, face)).toBe(true);
    expect(contains(centreCrop(wide), face)).toBe(false);
  });

  it('keeps a face at the top edge whole in a wide crop of a tall image', () => {
    const tall = { imageWidth: 300, imageHeight: 900, targetWidth: 300, targetHeight: 100 };
    const face = { left: 120, top: 0, width: 60, height: 80, weight: 1 };
    const crop = smartCrop(tall, [face]);
    expect(crop).toEqual({ left: 0, top: 0, width: 300, height: 100 });
    expect(contains(crop, face)).toBe(true);
  });

  it('centres on the weighted centre but shifts to hold the whole union', () => {
    // Two faces 300 px apart in a 400 px crop: the crop holds both, centred between them.
    const a = { left: 100, top: 100, width: 50, height: 50, weight: 1 };
    const b = { left: 400, top: 100, width: 50, height: 50, weight: 1 };
    const crop = smartCrop(wide, [a, b]);
    expect(contains(crop, a) && contains(crop, b)).toBe(true);
    expect(crop.left).toBe(75);
  });

  it('drops lighter regions that do not fit and keeps the heaviest whole', () => {
    const big = { left: 50, top: 50, width: 200, height: 200, weight: 5 };
    const far = { left: 800, top: 50, width: 100, height: 100, weight: 1 };
    const crop = smartCrop(wide, [far, big]);
    expect(contains(crop, big)).toBe(true);
    expect(contains(crop, far)).toBe(false);
  });

  it('stays inside the image for regions anywhere, and a fitting region is never cut', () => {
    let seed = 7;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const req = {
        imageWidth: 50 + Math.floor(rand() * 950),
        imageHeight: 50 + Math.floor(rand() * 950),
        targetWidth: 1 + Math.floor(rand() * 1024),
        targetHeight: 1 + Math.floor(rand() * 1024),
      };
      const w = 1 + Math.floor(rand() * req.imageWidth * 0.3);
      const h = 1 + Math.floor(rand() * req.imageHeight * 0.3);
      const face = {
        left: Math.floor(rand() * (req.imageWidth - w)),
        top: Math.floor(rand() * (req.imageHeight - h)),
        width: w,
        height: h,
        weight: 1,
      };
      const crop = smartCrop(req, [face]);
      expect(inside(crop, req.imageWidth, req.imageHeight)).toBe(true);
      expect({ width: crop.width, height: crop.height }).toEqual(cropSize(req));
      if (w <= crop.width && h <= crop.height) expect(contains(crop, face)).toBe(true);
    }
  });
});

/** A grey image with a black-and-white checkerboard patch (cells of 2 px). */
function patchImage(width: number, height: number, patch: { left: number; top: number; size: number }) {
  const data = new Uint8Array(width * height * 3).fill(128);
  for (let y = patch.top; y < patch.top + patch.size; y++) {
    for (let x = patch.left; x < patch.left + patch.size; x++) {
      const v = (Math.floor(x / 2) + Math.floor(y / 2)) % 2 === 0 ? 0 : 255;
      data.fill(v, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return { data, width, height };
}

describe('saliency estimate', () => {
  it('finds a textured patch on a flat background', () => {
    const box = saliencyBox(patchImage(64, 32, { left: 48, top: 8, size: 14 }));
    expect(box.left).toBeGreaterThanOrEqual(46);
    expect(box.left + box.width).toBeLessThanOrEqual(64);
    expect(box.top).toBeGreaterThanOrEqual(6);
    expect(box.top + box.height).toBeLessThanOrEqual(24);
    expect(box.width * box.height).toBeLessThan(64 * 32 * 0.2);
  });

  it('finds the patch in the top-left corner of a tall image', () => {
    const box = saliencyBox(patchImage(24, 64, { left: 0, top: 0, size: 12 }));
    expect(box.left + box.width).toBeLessThanOrEqual(14);
    expect(box.top + box.height).toBeLessThanOrEqual(14);
  });

  it('gives the whole image when there is no contrast', () => {
    expect(saliencyBox({ data: new Uint8Array(20 * 10 * 3).fill(90), width: 20, height: 10 })).toEqual({
      left: 0,
      top: 0,
      width: 20,
      height: 10,
      weight: 1,
    });
  });

  it('steers a smart crop onto the patch', () => {
    const img = patchImage(64, 32, { left: 50, top: 10, size: 12 });
    const crop = smartCrop({ imageWidth: 64, imageHeight: 32, targetWidth: 10, targetHeight: 10 }, [saliencyBox(img)]);
    expect(crop.left).toBe(32);
  });
});
