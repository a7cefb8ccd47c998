/**
 * Saliency estimate for smart cropping when no face or object was found (pure): local contrast
 * (luminance gradient magnitude) on a small image, and the box holding the central part of it.
 * Flat sky, walls and blurred backgrounds carry little gradient; subjects, text and texture
 * carry most of it.
 */
import type { WeightedBox } from './crop-geometry';

/** 8-bit RGB pixels, HWC without padding (`RgbImage` of inference fits). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Named thresholds of the estimate. */
export const SALIENCY = {
  /** Longest side of the image the estimate runs on, px (the service shrinks to this). */
  sidePx: 64,
  /** Share of the gradient energy left out on each side of the box (0..0.5). */
  tailShare: 0.15,
  /**
   * Fraction of the mean gradient subtracted before weighting, so an evenly textured background
   * (grain, JPEG noise) adds nothing and the box closes in on where contrast stands out.
   */
  backgroundShare: 1,
} as const;

/**
 * The salient box of an image, in that image's pixels: the box from the `tailShare` to the
 * `1 − tailShare` quantile of above-average gradient energy along x and along y. An image
 * without contrast gives the whole image. Weight is 1 (it is the only region when used).
 *
 * @example
 * // 64×32 grey image with a checkerboard patch at x 48–61, y 8–21
 * saliencyBox(img); // { left: 50, top: 10, width: 10, height: 10, weight: 1 }: the patch's core
 */
export function saliencyBox(img: RgbImage): WeightedBox {
  const { width, height } = img;
  const energy = gradientEnergy(img);
  let mean = 0;
  for (const e of energy) mean += e;
  mean /= energy.length;
  const floor = mean * SALIENCY.backgroundShare;
  const cols = new Float64Array(width);
  const rows = new Float64Array(height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const e = Math.max(0, energy[y * width + x]! - floor);
      cols[x]! += e;
      rows[y]! += e;
    }
  }
  const xs = quantileSpan(cols, SALIENCY.tailShare);
  const ys = quantileSpan(rows, SALIENCY.tailShare);
  if (!xs || !ys) return { left: 0, top: 0, width, height, weight: 1 };
  return { left: xs.from, top: ys.from, width: xs.to - xs.from, height: ys.to - ys.from, weight: 1 };
}

/** Luminance (BT.601) gradient magnitude by central differences; borders repeat the edge pixel. */
function gradientEnergy(img: RgbImage): Float64Array {
  const { width, height, data } = img;
  const luma = new Float64Array(width * height);
  for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!;
  const at = (x: number, y: number): number => luma[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]!;
  const out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const gx = at(x + 1, y) - at(x - 1, y);
      const gy = at(x, y + 1) - at(x, y - 1);
      out[y * width + x] = Math.hypot(gx, gy);
    }
  }
  return out;
}

/** Index span [from, to) between the `tail` and `1 − tail` quantiles of a mass profile; undefined if empty. */
function quantileSpan(mass: Float64Array, tail: number): { from: number; to: number } | undefined {
  let total = 0;
  for (const m of mass) total += m;
  if (!(total > 0)) return undefined;
  let from = 0;
  let acc = 0;
  while (from < mass.length - 1 && acc + mass[from]! <= tail * total) acc += mass[from++]!;
  let to = mass.length;
  acc = 0;
  while (to > from + 1 && acc + mass[to - 1]! <= tail * total) acc += mass[--to]!;
  return { from, to };
}
