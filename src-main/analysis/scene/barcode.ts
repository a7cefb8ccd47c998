import { toGray } from '../pixels/thumbnail';
import type { RgbImage } from '../../inference';
import { greySplit } from './grey-split';

/**
 * A one-dimensional barcode (EAN, UPC, Code 128, Code 39…) on the ≤ 320 px thumbnail: a block of
 * rows that read the same, each crossing at least `minBars` dark bars, whose bar widths vary
 * (coefficient of variation ≥ `minWidthVariation`: bars of 1 to 4 modules; evenly striped fabric,
 * a fence or piano keys are alike), drawn in two tones (at most `maxMidTones` of the block's
 * pixels between the quarter and three quarters of the way from the dark to the light level: a
 * photographed bookshelf or a row of pillars has shading).
 * - Grey is split halfway between the 5th and 95th percentiles, which must span `minContrast`.
 * - Consecutive rows are the same when they differ in at most `rowDifference` of the columns of
 *   the bars' span, and the block's first and last rows in at most twice that (bars are straight;
 *   slanted stripes drift, and so would a barcode photographed askew, which is not found); the
 *   block must be at least `minHeightShare` of that span tall (bars are tall: 0.3–0.8 of the
 *   code's width) and `minHeightPx` rows.
 * A barcode whose bars lie horizontally is read on the transposed image.
 */
export const BARCODE = {
  minContrast: 80,
  minBars: 15,
  rowDifference: 0.05,
  minHeightShare: 0.2,
  minHeightPx: 6,
  minWidthVariation: 0.35,
  maxMidTones: 0.3,
} as const;

/**
 * Share of the image (0..1) the largest barcode found on `mid` (the ≤ 320 px thumbnail) covers,
 * its bars' span × the block of rows; 0 when none is found (`BARCODE`).
 */
export function measureBarcode(mid: RgbImage): number {
  const g = toGray(mid);
  const { width: w, height: h } = mid;
  const split = greySplit(g, BARCODE.minContrast);
  if (!split) return 0;
  const dark = new Uint8Array(w * h);
  for (let i = 0; i < g.length; i++) if (g[i]! < split.threshold) dark[i] = 1;
  // Mid tones: between a quarter and three quarters of the way from the dark to the light level,
  // counted only in a candidate block (rare).
  const quarter = (split.light - split.dark) / 4;
  const isMidTone = (i: number): boolean => g[i]! > split.dark + quarter && g[i]! < split.light - quarter;
  const across = barcodeArea(dark, w, h, (y, x) => isMidTone(y * w + x));
  const transposed = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) transposed[x * h + y] = dark[y * w + x]!;
  return (
    Math.max(
      across,
      barcodeArea(transposed, h, w, (x, y) => isMidTone(y * w + x)),
    ) /
    (w * h)
  );
}

/** Pixels covered by the largest block of alike barcode rows in a w×h dark mask (0 when none); `midTone(row, column)` of the mask. */
function barcodeArea(dark: Uint8Array, w: number, h: number, midTone: (row: number, column: number) => boolean): number {
  let best = 0;
  let blockStart = -1;
  let left = 0;
  let right = 0;
  const close = (end: number): void => {
    if (blockStart < 0) return;
    const height = end - blockStart;
    const span = right - left + 1;
    if (
      height >= BARCODE.minHeightPx &&
      height >= BARCODE.minHeightShare * span &&
      // Bars are straight: the block's first and last rows read alike too (slanted stripes drift).
      rowsAlike(dark, w, blockStart, end - 1, left, right, 2) &&
      barWidthsVary(dark, w, blockStart + (height >> 1), left, right) &&
      midToneShare(midTone, blockStart, end, left, right) <= BARCODE.maxMidTones
    )
      best = Math.max(best, height * span);
    blockStart = -1;
  };
  for (let y = 0; y < h; y++) {
    const bars = barSpan(dark, w, y);
    if (!bars) {
      close(y);
      continue;
    }
    if (blockStart >= 0 && rowsAlike(dark, w, y - 1, y, Math.min(left, bars.left), Math.max(right, bars.right))) {
      left = Math.min(left, bars.left);
      right = Math.max(right, bars.right);
      continue;
    }
    close(y);
    blockStart = y;
    left = bars.left;
    right = bars.right;
  }
  close(h);
  return best;
}

/** The span of row y's dark runs when it crosses at least `minBars` of them, else undefined. */
function barSpan(dark: Uint8Array, w: number, y: number): { left: number; right: number } | undefined {
  const row = y * w;
  let bars = 0;
  let left = -1;
  let right = -1;
  for (let x = 0; x < w; x++) {
    if (!dark[row + x]) continue;
    if (x === 0 || !dark[row + x - 1]) {
      bars++;
      if (left < 0) left = x;
    }
    right = x;
  }
  return bars >= BARCODE.minBars ? { left, right } : undefined;
}

/** Rows a and b differ in at most `times` × `rowDifference` of the columns left..right. */
function rowsAlike(dark: Uint8Array, w: number, a: number, b: number, left: number, right: number, times = 1): boolean {
  let differ = 0;
  for (let x = left; x <= right; x++) if (dark[a * w + x] !== dark[b * w + x]) differ++;
  return differ <= times * BARCODE.rowDifference * (right - left + 1);
}

/** The widths of row y's dark bars between left and right vary (`BARCODE.minWidthVariation`). */
function barWidthsVary(dark: Uint8Array, w: number, y: number, left: number, right: number): boolean {
  const bars: number[] = [];
  let width = 0;
  for (let x = left; x <= right + 1; x++) {
    if (x <= right && dark[y * w + x]) width++;
    else if (width > 0) {
      bars.push(width);
      width = 0;
    }
  }
  const mean = bars.reduce((a, b) => a + b, 0) / bars.length;
  const sd = Math.sqrt(bars.reduce((a, b) => a + (b - mean) ** 2, 0) / bars.length);
  return sd >= BARCODE.minWidthVariation * mean;
}

/** Share of mid-tone pixels in rows top..bottom−1, columns left..right. */
function midToneShare(midTone: (row: number, column: number) => boolean, top: number, bottom: number, left: number, right: number): number {
  let n = 0;
  for (let y = top; y < bottom; y++) for (let x = left; x <= right; x++) if (midTone(y, x)) n++;
  return n / ((bottom - top) * (right - left + 1));
}
