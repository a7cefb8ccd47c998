/**
 * Decision thresholds of the galleries, calibrated from measured genuine (same person / same
 * place) and impostor (different) similarity distributions — see docs/galleries.md for the
 * figures and `npm run bench -- gallery` (test/bench/gallery.ts) to re-measure them.
 */

/** Person matching on raw cosine of L2-normalised faceres descriptors. */
export const PERSON_MATCH = {
  /**
   * Minimum cosine. Measured (docs/galleries.md): fixture impostor pairs mean 0.40, sd 0.075
   * (n = 76); genuine cross-photo pairs 0.60–0.64 on the fixtures, mean 0.78 (p10 0.70) on a
   * same-person photo set. Fitting N(0.66, 0.07) to genuine and N(0.40, 0.075) to impostor
   * scores, their equal-error point is 0.53; 0.56 leans towards fewer false names
   * (impostor mean + 2.1 sd, Gaussian false-accept ≈ 2 % per comparison).
   */
  minScore: 0.56,
  /**
   * The best person must beat the second-best other person by this much; otherwise the face is
   * ambiguous between two enrolled people and is not named.
   */
  minMargin: 0.05,
  /** Logistic slope (cosine units) of the confidence: threshold → 0.5, threshold + 0.1 → 0.95. */
  confidenceScale: 0.034,
} as const;

/** Place matching on cosine of centred, L2-normalised pooled descriptors. */
export const PLACE_MATCH = {
  /**
   * Minimum cosine (centred space). Genuine = augmented views of the same scene (crop 55–90 %,
   * scale 0.5–1.5×, colour gains ±20 %, gamma 0.7–1.3): mean 0.86, sd 0.095; impostor = different
   * fixture images: mean 0.07, sd 0.19 (leave-one-out centre). Equal-error point of the two
   * Gaussian fits: 0.60.
   */
  minScore: 0.6,
  /** Logistic slope of the confidence. */
  confidenceScale: 0.05,
  /** At most this many places are reported per image. */
  maxResults: 3,
} as const;

/**
 * Maps a similarity to a 0..1 confidence: a logistic centred on the threshold, so a match just
 * above the threshold reports ~0.5 and clear matches approach 1. Rounded to 4 digits.
 */
export function matchConfidence(score: number, threshold: number, scale: number): number {
  const c = 1 / (1 + Math.exp(-(score - threshold) / scale));
  return Math.round(c * 10000) / 10000;
}
