import { histogramQuantile } from '../pixels/histogram';
import { dilateMask } from '../pixels/window-filters';
import { thumbnail, toGray } from '../pixels/thumbnail';
import type { RgbImage } from '../../inference';

/** Ink/paper statistics of an image, measured on a ≤ 320 px grey copy. */
export interface InkStats {
  /** Share of paper pixels (grey > 215, near white). */
  paper: number;
  /** Share of ink pixels (grey < 140). */
  ink: number;
  /** Share of everything in between (shading, photo tones). */
  mid: number;
  /**
   * Share of ink pixels within 2 px of paper: ≈ 1 for thin strokes (line art, text), low for
   * filled shapes (silhouettes) and dark photo regions.
   */
  thinInk: number;
  /**
   * Colourfulness of what is drawn: the 90th percentile of max(R,G,B) − min(R,G,B) over the
   * non-paper pixels. The image-wide chroma misses a small coloured figure on a large white page;
   * this does not (0–10 for black or grey line art, ≥ 60 for coloured fills).
   */
  inkColour: number;
}

/** Ink within this many px (Chebyshev) of paper counts as a thin stroke, px of the ≤ 320 px thumbnail. */
const THIN_RADIUS_PX = 2;

/** Measures paper/ink shares and stroke thinness; `mid` is the ≤ 320 px thumbnail when at hand. */
export function measureInk(img: RgbImage, mid: RgbImage = thumbnail(img, 320)): InkStats {
  const t = mid;
  const g = toGray(t);
  const w = t.width;
  const h = t.height;
  let paper = 0;
  let ink = 0;
  let thin = 0;
  const paperMask = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) paperMask[i] = g[i]! > 215 ? 1 : 0;
  const nearPaper = dilateMask(paperMask, w, h, THIN_RADIUS_PX);
  const spread = new Uint32Array(256); // histogram of max−min RGB over non-paper pixels
  const d = t.data;
  for (let i = 0; i < w * h; i++) {
    const v = g[i]!;
    if (v > 215) {
      paper++;
      continue;
    }
    const r = d[i * 3]!;
    const gr = d[i * 3 + 1]!;
    const b = d[i * 3 + 2]!;
    const k = Math.max(r, gr, b) - Math.min(r, gr, b);
    spread[k] = spread[k]! + 1;
    if (v >= 140) continue;
    ink++;
    if (nearPaper[i]) thin++;
  }
  const n = w * h;
  return {
    paper: paper / n,
    ink: ink / n,
    mid: (n - paper - ink) / n,
    thinInk: ink ? thin / ink : 0,
    inkColour: histogramQuantile(spread, 0.9),
  };
}
