import type { PixelField } from '../pixels/pixel-field';

/**
 * How a repeating pattern (checks, dots, tiles, a grid, bricks) is told from everything else, on
 * the 160 px field's L*. Along each axis the image is correlated with itself shifted by 1 … half
 * the side (pixelwise, over the overlap, normalised by the whole image's mean and variance). A
 * pattern's correlation dips and comes back at its period; the strength of the return (once it
 * rises `minReturn` above the lowest dip before it) is the axis' reading. The dip is relative:
 * a grid's lines across the shift keep its correlation near 0.45 at every shift. Stripes repeat
 * along one axis only and read 0: a striped flag or shirt is left to the things it shows.
 */
export const REPETITION = {
  /** Rise above the lowest correlation before it that makes a return a period. */
  minReturn: 0.3,
  /** A horizontal reading below this ends the measure (the result can only be lower). */
  stopBelow: 0.5,
} as const;

/** Correlation of L* with itself shifted by (dx, dy) ≥ 0, over the overlap (≈ 1.5 ms per photo, which stops after the first axis). */
function correlationAtShift(L: Float32Array, w: number, h: number, dx: number, dy: number, mean: number, variance: number): number {
  let sum = 0;
  for (let y = 0; y + dy < h; y++) {
    const row = y * w;
    const other = (y + dy) * w + dx;
    for (let x = 0; x + dx < w; x++) sum += (L[row + x]! - mean) * (L[other + x]! - mean);
  }
  const n = (w - dx) * (h - dy);
  return n > 0 ? sum / (n * variance) : 0;
}

/** One axis: the best return of the correlation after a dip, 0 when it never returns. */
function axisReading(L: Float32Array, w: number, h: number, horizontal: boolean, mean: number, variance: number): number {
  const side = horizontal ? w : h;
  let dip = Infinity;
  let period = 0;
  for (let lag = 1; lag * 2 <= side; lag++) {
    const r = horizontal ? correlationAtShift(L, w, h, lag, 0, mean, variance) : correlationAtShift(L, w, h, 0, lag, mean, variance);
    dip = Math.min(dip, r);
    if (r - dip >= REPETITION.minReturn) period = Math.max(period, r);
  }
  return Math.min(1, period);
}

/**
 * How strongly the image repeats a motif in both directions, 0..1 (`REPETITION`): the weaker
 * axis' reading. Drawn patterns read 0.9–1.0, a sudoku grid 0.85, pages of text and charts 0
 * (their letters and data do not recur along a line), photos and drawings of things 0 or far
 * less. When the horizontal reading is below `stopBelow` the vertical one is not measured.
 */
export function measureRepetition(f: Pick<PixelField, 'L' | 'width' | 'height'>): number {
  const { L, width: w, height: h } = f;
  const n = w * h;
  if (w < 8 || h < 8) return 0;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += L[i]!;
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (L[i]! - mean) ** 2;
  variance /= n;
  if (variance < 1) return 0; // flat: within about one L* unit
  const x = axisReading(L, w, h, true, mean, variance);
  if (x < REPETITION.stopBelow) return x;
  return Math.min(x, axisReading(L, w, h, false, mean, variance));
}
