import table from '../../../models/image-type/photo-probe.json';

/**
 * The generated photo probe models/image-type/photo-probe.json (`npx tsx
 * tooling/image-type/photo-probe.ts`): a logistic regression on the ImageNet classifier's pooled
 * features that tells a photograph from a drawing. The features' standardisation is folded into
 * the weights, so P(photo) = σ(bias + Σ weights[i] · features[i]) on the raw pooled features
 * (uint8 steps, 0..255, as `classifyWithFeatures` returns them).
 */
export interface PhotoProbe {
  source: string;
  /** Length of the classifier's pooled features. */
  features: number;
  bias: number;
  weights: number[];
}

/** The committed probe. */
export const PHOTO_PROBE = table as PhotoProbe;

/** P(photo) 0..1 of an image from its pooled classifier features. */
export function photoProbability(features: ArrayLike<number>, probe: PhotoProbe = PHOTO_PROBE): number {
  if (features.length !== probe.features) throw new Error(`photo probe: ${features.length} features, expected ${probe.features}`);
  let z = probe.bias;
  for (let i = 0; i < probe.features; i++) z += probe.weights[i]! * features[i]!;
  return 1 / (1 + Math.exp(-z));
}
