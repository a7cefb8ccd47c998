import { clamp01 } from '../../inference';
import type { Adult } from '../../shared/spec';
import type { ContentProbabilities } from '../content-net';

/**
 * Thresholds of the Adult feature (docs/analysis.md). adultScore = P(Porn) + P(Hentai);
 * racyScore = P(Sexy) + P(Porn) + ½·P(Hentai) (explicit content is also suggestive, so racy ≥
 * adult for photos). The booleans use thresholds well above the scores nsfwjs gives ordinary
 * portraits and beach photos (≤ 0.3).
 */
export const ADULT_THRESHOLDS = { adult: 0.6, racy: 0.6 } as const;

const round3 = (x: number): number => Math.round(clamp01(x) * 1000) / 1000;

/** Maps the photo-content network's class probabilities to the Adult feature with the documented thresholds. */
export function adultFromProbabilities(p: ContentProbabilities): Adult {
  const adultScore = round3(p.Porn + p.Hentai);
  const racyScore = round3(p.Sexy + p.Porn + 0.5 * p.Hentai);
  return {
    isAdultContent: adultScore >= ADULT_THRESHOLDS.adult,
    isRacyContent: racyScore >= ADULT_THRESHOLDS.racy,
    adultScore,
    racyScore,
  };
}
