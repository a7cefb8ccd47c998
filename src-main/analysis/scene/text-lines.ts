import { histogramQuantile } from '../pixels/histogram';
import { maxFilter } from '../pixels/window-filters';
import { toGray } from '../pixels/thumbnail';
import type { RgbImage } from '../../inference';

/** Line structure of text: what makes a page of print or handwriting differ from line art. */
export interface TextLines {
  /** Bands of inked rows separated by blank rows, each 1.5–15 % of the height and ≥ 30 % wide. */
  lines: number;
  /**
   * Share of pixels at the local paper tone: within 25 grey levels of the lightest pixel of their
   * 9×9 neighbourhood (darkest for light-on-dark writing). A shaded or unevenly lit page still
   * scores high, while texture (grass, gravel, tissue) has most pixels well below its bright
   * specks and scores low (docs/analysis.md "Scene cues").
   */
  page: number;
}

/** Half-size of the neighbourhood the local paper tone is taken from, px of the ≤ 320 px thumbnail. */
const PAPER_RADIUS = 4;

/**
 * Finds text lines on the ≤ 320 px thumbnail: ink = pixels ≥ 45 grey levels away from the page
 * tone (the median, so grey paper and dark-mode screens work), a row is inked when ≥ 2 % of it is
 * ink and blank under 0.5 %; runs of inked rows between blank rows are text lines when their
 * height and width fit a line of writing.
 */
export function measureTextLines(mid: RgbImage): TextLines {
  const g = toGray(mid);
  const w = mid.width;
  const h = mid.height;
  const hist = new Uint32Array(256);
  for (let i = 0; i < g.length; i++) {
    const v = Math.round(g[i]!);
    hist[v] = hist[v]! + 1;
  }
  const median = histogramQuantile(hist, 0.5);
  const rowInk = new Float32Array(h);
  const rowMin = new Int32Array(h).fill(w);
  const rowMax = new Int32Array(h).fill(-1);
  for (let y = 0; y < h; y++) {
    let ink = 0;
    for (let x = 0; x < w; x++) {
      const d = Math.abs(g[y * w + x]! - median);
      if (d >= 45) {
        ink++;
        if (x < rowMin[y]!) rowMin[y] = x;
        if (x > rowMax[y]!) rowMax[y] = x;
      }
    }
    rowInk[y] = ink / w;
  }
  let lines = 0;
  let y = 0;
  while (y < h) {
    if (rowInk[y]! < 0.02) {
      y++;
      continue;
    }
    const start = y;
    let left = w;
    let right = -1;
    while (y < h && rowInk[y]! >= 0.005) {
      left = Math.min(left, rowMin[y]!);
      right = Math.max(right, rowMax[y]!);
      y++;
    }
    const height = y - start;
    const closed = start > 0 && y < h; // blank rows above and below
    if (closed && height >= 0.015 * h && height <= 0.15 * h && right - left >= 0.3 * w) lines++;
  }
  return { lines, page: paperShare(g, w, h, median) };
}

/**
 * Share of pixels within 25 grey levels of the local paper tone (`TextLines.page`). Ink polarity
 * follows the image: more pixels far below the median than far above means dark ink on light
 * paper, whose local paper tone is the neighbourhood maximum (a separable max filter).
 */
function paperShare(g: Float32Array, w: number, h: number, median: number): number {
  let below = 0;
  let above = 0;
  for (let i = 0; i < g.length; i++) {
    if (g[i]! <= median - 45) below++;
    else if (g[i]! >= median + 45) above++;
  }
  const sign = below >= above ? 1 : -1; // filter sign·g with max: max for dark ink, min for light
  const v = new Float32Array(g.length);
  for (let i = 0; i < g.length; i++) v[i] = sign * g[i]!;
  const local = maxFilter(v, w, h, PAPER_RADIUS);
  let near = 0;
  for (let i = 0; i < g.length; i++) if (local[i]! - v[i]! <= 25) near++;
  return g.length ? near / g.length : 0;
}
