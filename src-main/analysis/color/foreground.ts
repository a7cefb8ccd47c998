import { COLOR_NAMES, type ColorName } from '../../shared/spec';
import type { RgbImage } from '../../inference';
import { nameRgb } from './names';

/** A mask over the image: `inside(i)` for each cell of a `width` × `height` grid stretched over it. */
export interface CellMask {
  width: number;
  height: number;
  inside(cell: number): boolean;
}

/** Cells sampled per row and column at most (a 513² mask is read on a ≤ 160² lattice, as the colour field). */
const SAMPLE_SIDE = 160;

/**
 * The colour name covering most of the masked pixels (the subject's own colour), or undefined
 * when no cell is inside. The image pixel under each sampled cell's centre is named; names are
 * memoised per 5-bit-per-channel RGB cell, as in `namePixels`.
 */
export function maskedColorName(img: RgbImage, mask: CellMask): ColorName | undefined {
  const counts = new Float64Array(COLOR_NAMES.length);
  const memo = new Int8Array(32 * 32 * 32).fill(-1);
  const stepX = Math.max(1, Math.floor(mask.width / SAMPLE_SIDE));
  const stepY = Math.max(1, Math.floor(mask.height / SAMPLE_SIDE));
  let n = 0;
  for (let my = 0; my < mask.height; my += stepY) {
    const y = Math.min(img.height - 1, Math.floor(((my + 0.5) * img.height) / mask.height));
    for (let mx = 0; mx < mask.width; mx += stepX) {
      if (!mask.inside(my * mask.width + mx)) continue;
      const x = Math.min(img.width - 1, Math.floor(((mx + 0.5) * img.width) / mask.width));
      const p = (y * img.width + x) * 3;
      const r = img.data[p]!;
      const g = img.data[p + 1]!;
      const b = img.data[p + 2]!;
      const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
      let k = memo[key]!;
      if (k < 0) {
        k = COLOR_NAMES.indexOf(nameRgb(r, g, b));
        memo[key] = k;
      }
      counts[k] = counts[k]! + 1;
      n++;
    }
  }
  if (!n) return undefined;
  let best = 0;
  for (let k = 1; k < counts.length; k++) if (counts[k]! > counts[best]!) best = k;
  return COLOR_NAMES[best];
}
