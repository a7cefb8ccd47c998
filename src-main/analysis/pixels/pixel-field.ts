import { rgbToLab } from './lab';
import { thumbnail, toGray } from './thumbnail';
import type { RgbImage } from '../../inference';

/** Longer side of the statistics thumbnail, px (see `thumbnail`). */
export const FIELD_SIDE_PX = 160;
/** Longer side of the mid-size thumbnail used for edges and ink strokes, px. */
export const MID_SIDE_PX = 320;

/**
 * Per-pixel Lab planes of the statistics thumbnail, computed once and shared by the colour,
 * scene-cue and image-type modules. All planes are row-major, `width × height` long.
 */
export interface PixelField {
  readonly width: number;
  readonly height: number;
  /** Thumbnail RGB, HWC uint8. */
  readonly rgb: Uint8Array;
  /** L* 0..100. */
  readonly L: Float32Array;
  readonly a: Float32Array;
  readonly b: Float32Array;
  /** Chroma √(a²+b²), 0 for greys. */
  readonly C: Float32Array;
  /** Lab hue angle, degrees 0..360. */
  readonly hue: Float32Array;
  /** Local contrast: max |ΔL*| to the right/lower neighbour, L* units. */
  readonly grad: Float32Array;
}

/**
 * Builds the shared pixel field from a decoded image. Pass `base` (a larger thumbnail of the
 * same image, e.g. the 320 px one) to downscale from it instead of from the full image.
 */
export function buildPixelField(img: RgbImage, base?: RgbImage): PixelField {
  const t = thumbnail(base ?? img, FIELD_SIDE_PX);
  const n = t.width * t.height;
  const L = new Float32Array(n);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  const C = new Float32Array(n);
  const hue = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const lab = rgbToLab(t.data[i * 3]!, t.data[i * 3 + 1]!, t.data[i * 3 + 2]!);
    L[i] = lab.L;
    a[i] = lab.a;
    b[i] = lab.b;
    // √(a²+b²) rather than Math.hypot (several times slower; no overflow at Lab magnitudes).
    C[i] = Math.sqrt(lab.a * lab.a + lab.b * lab.b);
    const h = (Math.atan2(lab.b, lab.a) * 180) / Math.PI;
    hue[i] = h < 0 ? h + 360 : h;
  }
  const grad = new Float32Array(n);
  const w = t.width;
  for (let y = 0; y < t.height; y++) {
    const last = y + 1 === t.height;
    for (let x = 0, i = y * w; x < w; x++, i++) {
      const right = x + 1 < w ? Math.abs(L[i]! - L[i + 1]!) : 0;
      const down = last ? 0 : Math.abs(L[i]! - L[i + w]!);
      grad[i] = right > down ? right : down;
    }
  }
  return { width: t.width, height: t.height, rgb: t.data, L, a, b, C, hue, grad };
}

/** Texture statistics, measured on a ≤ 640 px copy of the image (see pixel-evidence.ts). */
export interface TextureStats {
  /**
   * Fraction of sampled pixels whose right and lower neighbours are identical in every channel.
   * Exact equality, not a tolerance: flat fills stay exactly flat (also inside JPEG blocks),
   * while smooth photos (blur, sky, microscopy, lossless greyscale scans) step by 1–2 levels
   * between neighbours and would pass a "≤ 2" test almost everywhere.
   */
  flatFraction: number;
  /** Fraction of pixels of the ≤ 320 px grey image with a Sobel magnitude > 64 (strong edges). */
  edgeDensity: number;
  /** Number of 4-bit-per-channel colour bins that together cover 90 % of the pixels. */
  colorBins90: number;
  /** flatFraction restricted to the outer 10 % band: ≈ 1 for a plain synthetic background. */
  borderFlat: number;
  /**
   * The same share on the band's least flat side (top, bottom, left or right strip): a page or
   * studio backdrop surrounds its figure (high on every side), a flat sky only tops a scene.
   */
  borderFlatLeast: number;
  /**
   * The figure: the pixels outside the border band's most common colour bin (the background of a
   * drawing or of a photo cut out on white; on a photo filling the frame, nearly every pixel).
   * `flat` is flatFraction among them, `bins90` the colour bins covering 90 % of them: a photo cut
   * out on white has a textured figure (flat ≈ 0) with a rich palette, a drawing's fills are flat.
   */
  figure: { flat: number; bins90: number };
  /** The source was lossy-coded (RgbImage.lossy): JPEG ringing makes a drawn figure look textured. */
  lossy: boolean;
}

/**
 * Measures texture: exact flat-fill share (on the ≤ 640 px copy the caller passes), strong-edge density (on `mid`, a
 * ≤ 320 px thumbnail of the same image) and palette size.
 */
export function measureTexture(img: RgbImage, mid: RgbImage = thumbnail(img, MID_SIDE_PX), lossy = img.lossy === true): TextureStats {
  const { data, width, height } = img;
  // A regular grid with stride ⌊√(pixels / 80 000)⌋: every pixel up to 320k (so all of the 640 px
  // copy; the thresholds were set so: sampling every 2nd pixel moved colosseum.jpg to ambiguous
  // clip art), sparser beyond. Flatness is judged against the true neighbours.
  const stride = Math.max(1, Math.floor(Math.sqrt((width * height) / 80_000)));
  let flat = 0;
  let sampled = 0;
  let borderFlat = 0;
  let borderSampled = 0;
  // Per side of the band (corners count for two sides): samples and flat ones, in locals (hot loop).
  let topN = 0;
  let topFlat = 0;
  let bottomN = 0;
  let bottomFlat = 0;
  let leftN = 0;
  let leftFlat = 0;
  let rightN = 0;
  let rightFlat = 0;
  const bx = width * 0.1;
  const by = height * 0.1;
  const bins = new Uint32Array(4096);
  const row = width * 3;
  const background = borderBin(img, stride, bx, by);
  const figureBins = new Uint32Array(4096);
  let figure = 0;
  let figureFlat = 0;
  for (let y = 0; y + 1 < height; y += stride) {
    const top = y < by;
    const bottom = y >= height - by;
    const inBandY = top || bottom;
    for (let x = 0; x + 1 < width; x += stride) {
      const p = (y * width + x) * 3;
      const r0 = data[p]!;
      const g0 = data[p + 1]!;
      const b0 = data[p + 2]!;
      const isFlat =
        r0 === data[p + 3] &&
        g0 === data[p + 4] &&
        b0 === data[p + 5] &&
        r0 === data[p + row] &&
        g0 === data[p + row + 1] &&
        b0 === data[p + row + 2];
      if (isFlat) flat++;
      sampled++;
      const left = x < bx;
      const right = x >= width - bx;
      if (inBandY || left || right) {
        borderSampled++;
        const f = isFlat ? 1 : 0;
        borderFlat += f;
        if (top) {
          topN++;
          topFlat += f;
        }
        if (bottom) {
          bottomN++;
          bottomFlat += f;
        }
        if (left) {
          leftN++;
          leftFlat += f;
        }
        if (right) {
          rightN++;
          rightFlat += f;
        }
      }
      const k = ((r0 >> 4) << 8) | ((g0 >> 4) << 4) | (b0 >> 4);
      bins[k] = bins[k]! + 1;
      if (k !== background) {
        figure++;
        if (isFlat) figureFlat++;
        figureBins[k] = figureBins[k]! + 1;
      }
    }
  }
  return {
    flatFraction: sampled ? flat / sampled : 0,
    edgeDensity: sobelDensity(mid),
    colorBins90: binsCovering(bins, 0.9 * sampled),
    borderFlat: borderSampled ? borderFlat / borderSampled : 0,
    borderFlatLeast: Math.min(share(topFlat, topN), share(bottomFlat, bottomN), share(leftFlat, leftN), share(rightFlat, rightN)),
    figure: { flat: figure ? figureFlat / figure : 0, bins90: binsCovering(figureBins, 0.9 * figure) },
    lossy,
  };
}

/** `part` of `total`, 0 when nothing was counted. */
const share = (part: number, total: number): number => (total ? part / total : 0);

/** How many of the fullest bins it takes to cover `share` counts. */
function binsCovering(bins: Uint32Array, share: number): number {
  // Only filled bins (a photo fills a few hundred of the 4 096).
  const sorted = bins.filter((c) => c > 0).sort((p, q) => q - p);
  let covered = 0;
  let n = 0;
  for (const c of sorted) {
    if (covered >= share) break;
    covered += c;
    n++;
  }
  return n;
}

/** The most common 4-bit colour bin of the outer band (`bx`, `by` px wide), on the same sampling grid. */
function borderBin(img: RgbImage, stride: number, bx: number, by: number): number {
  const { data, width, height } = img;
  const counts = new Uint32Array(4096);
  // The first sampled column at or past the right band (same grid as measureTexture).
  const rightBand = Math.ceil((width - bx) / stride) * stride;
  for (let y = 0; y + 1 < height; y += stride) {
    const inBandY = y < by || y >= height - by;
    for (let x = 0; x + 1 < width; x += stride) {
      if (!inBandY && x >= bx && x < width - bx) {
        x = rightBand - stride; // skip the interior of the row
        continue;
      }
      const p = (y * width + x) * 3;
      const k = ((data[p]! >> 4) << 8) | ((data[p + 1]! >> 4) << 4) | (data[p + 2]! >> 4);
      counts[k] = counts[k]! + 1;
    }
  }
  let best = 0;
  for (let k = 1; k < 4096; k++) if (counts[k]! > counts[best]!) best = k;
  return best;
}

/** Squared Sobel magnitude of a strong edge: gain 4 × 64 grey levels per pixel, squared (no square root per pixel). */
const STRONG_EDGE_SQ = (64 * 4) ** 2;

function sobelDensity(t: RgbImage): number {
  const g = toGray(t);
  const w = t.width;
  let strong = 0;
  let total = 0;
  for (let y = 1; y + 1 < t.height; y++) {
    for (let x = 1; x + 1 < w; x++) {
      const i = y * w + x;
      const gx = g[i - w + 1]! + 2 * g[i + 1]! + g[i + w + 1]! - g[i - w - 1]! - 2 * g[i - 1]! - g[i + w - 1]!;
      const gy = g[i + w - 1]! + 2 * g[i + w]! + g[i + w + 1]! - g[i - w - 1]! - 2 * g[i - w]! - g[i - w + 1]!;
      if (gx * gx + gy * gy > STRONG_EDGE_SQ) strong++;
      total++;
    }
  }
  return total ? strong / total : 0;
}
