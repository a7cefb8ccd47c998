import { clamp01 } from '../../inference';
import type { Adult } from '../../shared/spec';
import type { RgbPixels } from '../pixels/types';
import { resizeBilinearToTensor, type Tensor } from '../tensor/resize';

/** Manifest id of the NSFW classifier (nsfwjs MobileNetV2-mid, converted to ONNX). */
export const NSFW_MODEL_ID = 'nsfw-mobilenet-v2-mid';
/** Output order of the classifier's softmax. */
export const NSFW_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type NsfwClass = (typeof NSFW_CLASSES)[number];
export type NsfwProbabilities = Record<NsfwClass, number>;

/**
 * Thresholds of the Adult feature (docs/analysis.md). adultScore = P(Porn) + P(Hentai);
 * racyScore = P(Sexy) + P(Porn) + ½·P(Hentai) (explicit content is also suggestive, so racy ≥
 * adult for photos). The booleans use thresholds well above the scores nsfwjs gives ordinary
 * portraits and beach photos (≤ 0.3).
 */
export const ADULT_THRESHOLDS = { adult: 0.6, racy: 0.6 } as const;

/**
 * Preprocessing exactly as nsfwjs 4.2.1 `infer()`: x/255, then `tf.image.resizeBilinear` of the
 * whole image to 224×224 with alignCorners=true (no crop, no antialiasing). NHWC float32 0..1.
 * Any other resize shifts the scores by several points.
 */
export function nsfwPreprocess(img: RgbPixels): Record<string, Tensor> {
  return { input: resizeBilinearToTensor(img, 224, 224, { alignCorners: true, layout: 'NHWC', scale: 1 / 255, offset: 0 }) };
}

/** Reads the softmax output `probabilities` `[1,5]` into named class probabilities. */
export function nsfwProbabilities(outputs: Record<string, Tensor>): NsfwProbabilities {
  const p = outputs['probabilities']?.data;
  if (!p || p.length < 5) throw new Error('nsfw model returned no probabilities');
  return { Drawing: p[0]!, Hentai: p[1]!, Neutral: p[2]!, Porn: p[3]!, Sexy: p[4]! };
}

const round3 = (x: number): number => Math.round(clamp01(x) * 1000) / 1000;

/** Maps class probabilities to the Adult feature with the documented thresholds. */
export function adultFromProbabilities(p: NsfwProbabilities): Adult {
  const adultScore = round3(p.Porn + p.Hentai);
  const racyScore = round3(p.Sexy + p.Porn + 0.5 * p.Hentai);
  return {
    isAdultContent: adultScore >= ADULT_THRESHOLDS.adult,
    isRacyContent: racyScore >= ADULT_THRESHOLDS.racy,
    adultScore,
    racyScore,
  };
}
