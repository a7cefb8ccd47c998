import { COLOR_NAMES, type Color, type ColorName } from '../../shared/spec';
import { toHex } from '../pixels/lab';
import type { PixelField } from '../pixels/pixel-field';
import { chromaStats, isBlackAndWhite, type ChromaStats } from './bw';
import { ACHROMATIC_CHROMA, nameLab } from './names';

/** Width of the background band as a fraction of each side (the surround of the subject). */
const BORDER_FRACTION = 0.12;
/** Share of the image a colour needs to be listed in `dominantColors` (besides fg/bg). */
const DOMINANT_MIN_SHARE = 0.15;

/**
 * Names every pixel of the field (index into COLOR_NAMES). Names are memoised per 5-bit-per-
 * channel RGB cell (a cell spans < 3 ΔE, far below the distance between prototypes).
 */
export function namePixels(field: PixelField): Uint8Array {
  const out = new Uint8Array(field.L.length);
  const memo = new Int8Array(32 * 32 * 32).fill(-1);
  const rgb = field.rgb;
  for (let i = 0; i < out.length; i++) {
    const key = ((rgb[i * 3]! >> 3) << 10) | ((rgb[i * 3 + 1]! >> 3) << 5) | (rgb[i * 3 + 2]! >> 3);
    let k = memo[key]!;
    if (k < 0) {
      k = COLOR_NAMES.indexOf(nameLab({ L: field.L[i]!, a: field.a[i]!, b: field.b[i]! }));
      memo[key] = k;
    }
    out[i] = k;
  }
  return out;
}

function argmax(hist: Float64Array): number {
  let best = 0;
  for (let i = 1; i < hist.length; i++) if (hist[i]! > hist[best]!) best = i;
  return best;
}

/**
 * Foreground/background/whole-image colour names. Background = the border band. Foreground =
 * pixels weighted by centrality (1 at the centre, 0 at the border) and by how much they differ
 * from the background colour name, so a subject on a plain surround wins over the surround that
 * also reaches the centre.
 */
export function dominantNames(
  field: PixelField,
  names: Uint8Array,
): Pick<Color, 'dominantColorForeground' | 'dominantColorBackground' | 'dominantColors'> {
  const { width: w, height: h } = field;
  const bx = Math.max(1, Math.round(w * BORDER_FRACTION));
  const by = Math.max(1, Math.round(h * BORDER_FRACTION));
  const bg = new Float64Array(COLOR_NAMES.length);
  const all = new Float64Array(COLOR_NAMES.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const k = names[y * w + x]!;
      all[k] = all[k]! + 1;
      if (x < bx || x >= w - bx || y < by || y >= h - by) bg[k] = bg[k]! + 1;
    }
  }
  const bgIdx = argmax(bg);
  const fg = new Float64Array(COLOR_NAMES.length);
  // Squared distances from the centre per column, in half-widths (0 at the centre, 1 at the edge).
  const dx2 = new Float64Array(w);
  for (let x = 0; x < w; x++) dx2[x] = (Math.abs((x + 0.5) / w - 0.5) * 2) ** 2;
  for (let y = 0; y < h; y++) {
    const dy2 = (Math.abs((y + 0.5) / h - 0.5) * 2) ** 2;
    for (let x = 0; x < w; x++) {
      const centrality = Math.max(0, 1 - Math.sqrt(dx2[x]! + dy2) / Math.SQRT2);
      const k = names[y * w + x]!;
      fg[k] = fg[k]! + centrality * (k === bgIdx ? 0.3 : 1);
    }
  }
  const fgIdx = argmax(fg);
  const total = w * h;
  const order = Array.from(all.keys()).sort((p, q) => all[q]! - all[p]!);
  const dominant = new Set<ColorName>();
  for (const k of order) if (all[k]! / total >= DOMINANT_MIN_SHARE || dominant.size === 0) dominant.add(COLOR_NAMES[k]!);
  dominant.add(COLOR_NAMES[fgIdx]!);
  dominant.add(COLOR_NAMES[bgIdx]!);
  const dominantColors = order.map((k) => COLOR_NAMES[k]!).filter((n) => dominant.has(n));
  return { dominantColorForeground: COLOR_NAMES[fgIdx]!, dominantColorBackground: COLOR_NAMES[bgIdx]!, dominantColors };
}

/**
 * The most vibrant colour: pixels are pooled in 3-bit-per-channel RGB bins; each bin with at
 * least 0.3 % of the image scores mean chroma × √share, so a saturated colour that covers a
 * visible area beats both a huge dull area and a few saturated stray pixels. Greyscale images
 * return their most common tone. Six upper-case hex digits, no '#'.
 */
export function accentColor(field: PixelField): string {
  const n = field.L.length;
  const count = new Float64Array(512);
  const sum = new Float64Array(512 * 4); // R, G, B, chroma
  for (let i = 0; i < n; i++) {
    const r = field.rgb[i * 3]!;
    const g = field.rgb[i * 3 + 1]!;
    const b = field.rgb[i * 3 + 2]!;
    const k = ((r >> 5) << 6) | ((g >> 5) << 3) | (b >> 5);
    count[k] = count[k]! + 1;
    sum[k * 4] = sum[k * 4]! + r;
    sum[k * 4 + 1] = sum[k * 4 + 1]! + g;
    sum[k * 4 + 2] = sum[k * 4 + 2]! + b;
    sum[k * 4 + 3] = sum[k * 4 + 3]! + field.C[i]!;
  }
  let best = -1;
  let bestScore = -1;
  let mostCommon = 0;
  for (let k = 0; k < 512; k++) {
    const c = count[k]!;
    if (c > count[mostCommon]!) mostCommon = k;
    if (c < 0.003 * n) continue;
    const meanC = sum[k * 4 + 3]! / c;
    if (meanC < ACHROMATIC_CHROMA) continue;
    const score = meanC * Math.sqrt(c / n);
    if (score > bestScore) {
      bestScore = score;
      best = k;
    }
  }
  const k = best >= 0 ? best : mostCommon;
  const c = count[k] || 1;
  return toHex(sum[k * 4]! / c, sum[k * 4 + 1]! / c, sum[k * 4 + 2]! / c);
}

/** The Color feature: pure image processing on the pixel field (pass `chroma` when already measured). */
export function analyzeColor(field: PixelField, chroma: ChromaStats = chromaStats(field)): Color {
  const names = namePixels(field);
  const bw = isBlackAndWhite(chroma);
  return { ...dominantNames(field, names), accentColor: accentColor(field), isBWImg: bw };
}
