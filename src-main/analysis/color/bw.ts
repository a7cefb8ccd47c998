import { valuesAtRanks } from '../pixels/order-statistics';
import type { PixelField } from '../pixels/pixel-field';

/** Thresholds of the black-and-white decision, in Lab chroma units (documented in docs/analysis.md). */
export const BW_THRESHOLDS = {
  /** 90th-percentile chroma of a grey image stays under this (JPEG chroma noise is ≈ 1–3). */
  p90Chroma: 6,
  /** 99th percentile: a few tinted pixels (a small logo, fringes) are tolerated, a colour subject is not. */
  p99Chroma: 15,
  /** Tinted monochrome (sepia, cyanotype): chroma up to this at p90 ... */
  tintP90Chroma: 16,
  /** ... when the hue of every tinted pixel agrees (mean resultant length of chroma-weighted hues) ... */
  tintHueConcentration: 0.97,
  /**
   * ... and the tint is one: it covers the image (median chroma at least this, as a toned print's
   * paper is toned too) or stays pale (p99 at most `tintP99Chroma`). One saturated colour on a
   * white page (a blue logo: p50 0, p99 58) is a colour image, not a duotone.
   */
  tintSpreadP50Chroma: 2,
  tintP99Chroma: 30,
} as const;

/** Chroma statistics behind `isBWImg`. */
export interface ChromaStats {
  p50: number;
  p90: number;
  p99: number;
  /** 0..1: 1 when all chromatic pixels share one hue (a tint), ≈ 0 for varied colours. */
  hueConcentration: number;
}

/** Percentiles of chroma and hue concentration over the pixel field. */
export function chromaStats(field: PixelField): ChromaStats {
  const n = field.C.length;
  const [p50, p90, p99] = valuesAtRanks(
    field.C,
    [0.5, 0.9, 0.99].map((p) => Math.floor(p * n)),
  );
  let sa = 0;
  let sb = 0;
  let sw = 0;
  for (let i = 0; i < field.C.length; i++) {
    const c = field.C[i]!;
    if (c < 3) continue; // hue of near-greys is noise
    sa += field.a[i]!;
    sb += field.b[i]!;
    sw += c;
  }
  return { p50: p50!, p90: p90!, p99: p99!, hueConcentration: sw > 0 ? Math.hypot(sa, sb) / sw : 1 };
}

/**
 * True for greyscale and near-greyscale images: almost every pixel nearly achromatic, or a
 * single-hue tint of low chroma (sepia, duotone). Works on any stored format: a grey PNG, a
 * grey+alpha PNG and an RGB JPEG of a grey scene give the same answer.
 */
export function isBlackAndWhite(s: ChromaStats): boolean {
  const t = BW_THRESHOLDS;
  if (s.p90 <= t.p90Chroma && s.p99 <= t.p99Chroma) return true;
  const tint = s.p50 >= t.tintSpreadP50Chroma || s.p99 <= t.tintP99Chroma;
  return tint && s.p90 <= t.tintP90Chroma && s.hueConcentration >= t.tintHueConcentration;
}
