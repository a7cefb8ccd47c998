/**
 * Decision thresholds of the galleries, calibrated from measured genuine (same person / same
 * place) and impostor (different) similarity distributions — see docs/galleries.md for the
 * figures; re-measure people with `npm run eval:gallery` (test/eval/gallery.ts) and places with
 * `npm run bench -- gallery` (test/bench/gallery.ts).
 */
import { sigmoid } from '../../inference';

/** Person matching on raw cosine of L2-normalised dlib ResNet descriptors (FACE_DESCRIPTOR). */
export const PERSON_MATCH = {
  /**
   * Minimum cosine, for a false-match rate of at most 1 in 10 000 impostor comparisons. Measured
   * by `npm run eval:gallery` (docs/galleries.md "Person descriptor"): 187 faces (fixture faces
   * and crops of test/fixtures/people) with 1 465 synthetic variations, 125 707 impostor
   * comparisons: mean 0.85, sd 0.035 (dlib's cosines are compressed), 99.99th percentile 0.948,
   * max 0.954. 0.955 is above every one of them (95 % upper bound 2.4e-5 per comparison);
   * genuine pairs across different photos: 88 % at or above 0.955. The fixture pair Obama/Biden
   * portrait ~ the two-people photo scores 0.960/0.958.
   */
  minScore: 0.955,
  /**
   * The best person must beat the second-best other person by this much; otherwise the face is
   * ambiguous between two enrolled people and is not named. 0.025 is faceres' 0.05 in units of
   * the impostor sd (0.035 here against 0.072).
   */
  minMargin: 0.025,
  /**
   * Logistic slope (cosine units) of the confidence: threshold 0.955 → 0.5, 0.97 (the genuine
   * cross-photo mean) → 0.95, 0.98 → 0.99.
   */
  confidenceScale: 0.005,
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
