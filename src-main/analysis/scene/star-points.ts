import { toGray } from '../pixels/thumbnail';
import type { RgbImage } from '../../inference';

/**
 * A star: a pixel of the ≤ 320 px thumbnail (grey 0..255) at least `minLevel` bright, the
 * brightest of its 3 × 3 neighbourhood, at least `minContrast` grey levels above every pixel of
 * the ring `ringRadius` px around it, and that ring even (within `maxRingSpread` levels): a point
 * of light on a smooth background. The highlights of a dark texture (fur, leaves, gravel, hair)
 * have uneven surroundings. Measured (`starPoints`, such points per 10 000 px): 37 of 49 sky
 * photos of Stellarium's deep-sky set ≥ 2 (single galaxies and nebulae filling the frame, and
 * crowded clusters whose rings hold other stars, fewer); 371 fixture, wallpaper and puzzle
 * photos ≤ 0.5, dark portraits and a dark forest included.
 */
export const STAR_POINT = { minLevel: 60, minContrast: 30, ringRadius: 3, maxRingSpread: 12 } as const;

/**
 * A star field spreads over the frame: its points reach at least this many of the nine cells of a
 * 3 × 3 grid (the sky photos above: all nine); lit windows of a skyline or lamps along a street
 * gather in a few.
 */
export const STAR_FIELD_MIN_CELLS = 7;

/** The ring: 16 offsets at `ringRadius` px, rounded to whole pixels. */
const RING: readonly (readonly [number, number])[] = Array.from({ length: 16 }, (_, a) => {
  const angle = (a * Math.PI) / 8;
  return [Math.round(STAR_POINT.ringRadius * Math.cos(angle)), Math.round(STAR_POINT.ringRadius * Math.sin(angle))] as const;
});

/**
 * Points of light on a smooth background (`STAR_POINT`) per 10 000 px of `mid` (the ≤ 320 px
 * thumbnail); 0 when they gather in fewer than `STAR_FIELD_MIN_CELLS` cells of a 3 × 3 grid.
 */
export function measureStarPoints(mid: RgbImage): number {
  const g = toGray(mid);
  const { width: w, height: h } = mid;
  const r = STAR_POINT.ringRadius;
  let points = 0;
  const cells = new Set<number>();
  for (let y = r; y < h - r; y++)
    for (let x = r; x < w - r; x++) {
      const i = y * w + x;
      const v = g[i]!;
      // The four ring pixels straight left, right, above and below first: they turn away nearly
      // every pixel of a smooth or textured area at the cost of four reads.
      const floor = v - STAR_POINT.minContrast;
      if (v < STAR_POINT.minLevel || g[i - r]! > floor || g[i + r]! > floor || g[i - r * w]! > floor || g[i + r * w]! > floor) continue;
      if (!isLocalMax(g, w, x, y, v)) continue;
      let ringMax = 0;
      let ringMin = 255;
      for (const [dx, dy] of RING) {
        const q = g[(y + dy) * w + x + dx]!;
        if (q > ringMax) ringMax = q;
        if (q < ringMin) ringMin = q;
      }
      if (v - ringMax < STAR_POINT.minContrast || ringMax - ringMin > STAR_POINT.maxRingSpread) continue;
      points++;
      cells.add(Math.floor((3 * y) / h) * 3 + Math.floor((3 * x) / w));
    }
  return cells.size >= STAR_FIELD_MIN_CELLS ? (points / (w * h)) * 1e4 : 0;
}

/** No pixel of the 3 × 3 neighbourhood of (x, y) is brighter than `v`. */
function isLocalMax(g: Float32Array, w: number, x: number, y: number, v: number): boolean {
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (g[(y + dy) * w + x + dx]! > v) return false;
  return true;
}
