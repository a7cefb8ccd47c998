/**
 * Decision thresholds of the galleries, calibrated from measured genuine (same person / same
 * place) and impostor (different) similarity distributions — see docs/galleries.md for the
 * figures; re-measure people with `npm run eval:gallery` (test/eval/gallery.ts) and places with
 * `npm run bench -- gallery` (test/bench/gallery.ts).
 */
import { sigmoid } from '../../inference';

/** Person matching on raw cosine of L2-normalised faceres descriptors. */
export const PERSON_MATCH = {
  /**
   * Minimum cosine, for a false-match rate of at most 1 in 10 000 impostor comparisons. Measured
   * by `npm run eval:gallery` (docs/galleries.md): 188 faces (13 fixture faces, 175 crops of
   * test/fixtures/people) plus 8 synthetic variations each, against 170 enrolled identities:
   * 129 146 impostor comparisons, mean 0.34, sd 0.072, 99.99th percentile 0.662, max 0.684
   * (siblings of the family photo, a look-alike). 0.70 is above every one of them (95 % upper
   * bound 2.3e-5 per comparison); genuine pairs across different photos: median 0.87, 76 %
   * at or above 0.70. The fixture pair Obama/Biden portrait ~ the two-people photo scores
   * 0.59/0.62, inside the impostor range: this recogniser cannot name them there without
   * also naming look-alikes.
   */
  minScore: 0.7,
  /**
   * The best person must beat the second-best other person by this much; otherwise the face is
   * ambiguous between two enrolled people and is not named.
   */
  minMargin: 0.05,
  /**
   * Logistic slope (cosine units) of the confidence: threshold 0.70 → 0.5, 0.80 → 0.95 (about
   * the lower quartile of genuine cross-photo scores), the genuine median 0.87 → 0.99.
   */
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
  const c = sigmoid((score - threshold) / scale);
  return Math.round(c * 10000) / 10000;
}
