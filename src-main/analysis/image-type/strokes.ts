import { histogramQuantile } from '../pixels/histogram';
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

/** Measures paper/ink shares and stroke thinness; `mid` is the ≤ 320 px thumbnail when at hand. */
export function measureInk(img: RgbImage, mid: RgbImage = thumbnail(img, 320)): InkStats {
  const t = mid;
  const g = toGray(t);
  const w = t.width;
  const h = t.height;
  let paper = 0;
  let ink = 0;
  let thin = 0;
  const R = 2;
  const spread = new Uint32Array(256); // histogram of max−min RGB over non-paper pixels
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = g[y * w + x]!;
      if (v > 215) {
        paper++;
        continue;
      }
      const p = (y * w + x) * 3;
      const [r, gr, b] = [t.data[p]!, t.data[p + 1]!, t.data[p + 2]!];
      const k = Math.max(r, gr, b) - Math.min(r, gr, b);
      spread[k] = spread[k]! + 1;
      if (v >= 140) continue;
      ink++;
      search: for (let dy = -R; dy <= R; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -R; dx <= R; dx++) {
          const xx = x + dx;
          if (xx >= 0 && xx < w && g[yy * w + xx]! > 215) {
            thin++;
            break search;
          }
        }
      }
    }
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
