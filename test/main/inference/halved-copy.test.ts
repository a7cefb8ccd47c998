/**
 * Half-size copies (inference/halved-copy.ts) and the face windows sampled from them
 * (window-source.ts): exact 2 × 2 means, one copy per image, and a large face's crop that agrees
 * with an area-averaged reference as closely as the full-size warp's taps do.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  decodeImage,
  HALVE_FROM_STEP,
  HALF_TILE_PX,
  halvedCopy,
  halvedWindow,
  warpToTensor,
  windowSource,
  type RgbImage,
  type Window,
} from '../../../src-main/inference';
import { fixture } from '../../helpers/paths';

const rgb = (width: number, height: number, value: (x: number, y: number, c: number) => number): RgbImage => {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = value(x, y, c);
  return { data, width, height, channels: 3 };
};

const at = (img: RgbImage, x: number, y: number, c: number): number => img.data[(y * img.width + x) * 3 + c]!;

/** The window (axis-aligned) of `img` shrunk to `side` px by libvips' linear reduce: an area average. */
async function areaReference(img: RgbImage, win: Window, side: number): Promise<Float32Array> {
  const left = Math.round(win.cx - win.size / 2);
  const top = Math.round(win.cy - win.size / 2);
  const size = Math.round(win.size);
  const { data } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .extract({ left, top, width: size, height: size })
    .resize(side, side, { kernel: 'linear', fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Float32Array.from(data);
}

const meanAbsDiff = (a: Float32Array, b: Float32Array): number => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length;

describe('half-size copies', () => {
  it('averages each 2 × 2 block (an odd last row and column with themselves), once per image', () => {
    const img = rgb(5, 3, (x, y, c) => 10 * x + 50 * y + c);
    const half = halvedCopy(img);
    expect([half.width, half.height]).toEqual([3, 2]);
    // (0+10+50+60)/4 = 30 for the first block; the last column averages x = 4 with itself.
    expect(at(half, 0, 0, 0)).toBe(30);
    expect(at(half, 2, 0, 1)).toBe(Math.round((40 + 40 + 90 + 90) / 4) + 1);
    expect(at(half, 1, 1, 2)).toBe(Math.round((20 + 30 + 20 + 30) / 4) + 100 + 2);
    expect(halvedCopy(img) === half, 'the same copy on the second call').toBe(true);
  });

  it('fills only the tiles a window reads, two levels down, with the values of the whole copies', async () => {
    const bytes = readFileSync(fixture('tom_cruise.jpg'));
    const img = await decodeImage(bytes, { maxPixels: 1e7 });
    // Level 1 filled around the face only; level 2 then asked for a window elsewhere, whose
    // level-1 tiles must be filled first.
    const once = halvedWindow(img, { cx: 300, cy: 320, size: 180, angleRad: 0.3 });
    const twice = halvedWindow(once.img, { cx: 60, cy: 330, size: 90, angleRad: -0.2 });
    expect(twice.win.size).toBeCloseTo(45, 9);
    // Far from both windows (the bottom-right tile) the copies are still unfilled.
    const corner = (c: RgbImage): number => c.data[c.data.length - 1]!;
    expect([corner(once.img), corner(twice.img)]).toEqual([0, 0]);
    expect(once.img.width).toBeGreaterThan(4 * HALF_TILE_PX);
    // The same window sampled from whole half-size copies of another decode of the photo.
    const whole = halvedCopy(halvedCopy(await decodeImage(bytes, { maxPixels: 1e7 })));
    const target = { side: 24, layout: 'nchw', scale: 1, offset: 0, channels: 3 } as const;
    expect(Array.from(warpToTensor(twice.img, twice.win, target))).toEqual(Array.from(warpToTensor(whole, twice.win, target)));
    expect(corner(whole)).toBeGreaterThan(0);
  });

  it("samples a portrait's large face from the half-size copy as faithfully as the full-size taps", async () => {
    const img = await decodeImage(readFileSync(fixture('tom_cruise.jpg')), { maxPixels: 1e7 });
    const target = { side: 96, layout: 'nhwc', scale: 1, offset: 0, channels: 3 } as const;
    for (const size of [260, 400, 520]) {
      const win = { cx: 280, cy: 330, size, angleRad: 0 };
      const source = await windowSource(img, win, target.side);
      const halvings = Math.round(Math.log2(size / source.win.size));
      expect(halvings, `halvings for a ${size} px window`).toBe(
        size >= HALVE_FROM_STEP * target.side ? (size >= 2 * HALVE_FROM_STEP * target.side ? 2 : 1) : 0,
      );
      const reference = await areaReference(img, win, target.side);
      const full = meanAbsDiff(warpToTensor(img, win, target), reference);
      const sampled = meanAbsDiff(warpToTensor(source.img, source.win, target), reference);
      // Measured, grey levels from the area average, full-size taps / as sampled: 260 px (not
      // halved) 0.97 / 0.97, 400 px 1.32 / 0.90, 520 px 1.52 / 1.15.
      expect(sampled, `${size} px window against the area average`).toBeLessThanOrEqual(full + 0.05);
      expect(sampled).toBeLessThan(1.5);
    }
  });
});
