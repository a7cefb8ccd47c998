import { describe, expect, it } from 'vitest';
import { cropRgb, decodeImage, makeThumbnail, resizeRgb, type RgbImage } from '../../../src-main/inference/image';
import { AppError } from '../../../src-main/core';
import { halfRedHalfBlue, pixelAt } from './support';

/** A w × h image whose pixel (x, y) is [x, y, 7]. */
function ramp(width: number, height: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x, y, 7], (y * width + x) * 3);
  return { data, width, height, channels: 3 };
}

describe('inference/image helpers', () => {
  it('cropRgb copies exactly the rectangle', () => {
    const crop = cropRgb(ramp(10, 8), { left: 2, top: 3, width: 4, height: 2 });
    expect(crop).toMatchObject({ width: 4, height: 2, channels: 3 });
    expect(pixelAt(crop, 0, 0)).toEqual([2, 3, 7]);
    expect(pixelAt(crop, 3, 1)).toEqual([5, 4, 7]);
  });

  it('cropRgb clamps to the image', () => {
    const crop = cropRgb(ramp(10, 8), { left: -5, top: 6, width: 8, height: 10 });
    expect(crop).toMatchObject({ width: 3, height: 2 });
    expect(pixelAt(crop, 0, 0)).toEqual([0, 6, 7]);
  });

  it('resizeRgb fills, covers, contains and fits inside', async () => {
    const src = await decodeImage(await (await halfRedHalfBlue(200, 100)).png().toBuffer(), { maxPixels: 1e6 });
    const fill = await resizeRgb(src, 50, 50);
    expect(fill).toMatchObject({ width: 50, height: 50, channels: 3 });
    expect(fill.data.length).toBe(50 * 50 * 3);
    expect(pixelAt(fill, 5, 25)).toEqual([255, 0, 0]);
    const cover = await resizeRgb(src, 50, 50, { fit: 'cover', kernel: 'nearest' });
    expect(cover).toMatchObject({ width: 50, height: 50 });
    const contain = await resizeRgb(src, 50, 50, { fit: 'contain', background: { r: 9, g: 9, b: 9 } });
    expect(pixelAt(contain, 25, 1)).toEqual([9, 9, 9]); // letterbox band above the 50 × 25 image
    const inside = await resizeRgb(src, 50, 50, { fit: 'inside', kernel: 'cubic' });
    expect(inside).toMatchObject({ width: 50, height: 25 });
  });

  it('makeThumbnail keeps small images small and shrinks large ones to 256 px', async () => {
    expect(await makeThumbnail(ramp(100, 60), 256)).toMatchObject({ width: 100, height: 60, mimeType: 'image/webp' });
    expect(await makeThumbnail(ramp(255, 1000), 256)).toMatchObject({ width: 65, height: 256 });
  });

  it('decodeImage turns garbage into decode-failed', async () => {
    const err = await decodeImage(Uint8Array.from([0xff, 0xd8, 0xff, 0, 1, 2]), { maxPixels: 1e6 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('decode-failed');
  });
});
