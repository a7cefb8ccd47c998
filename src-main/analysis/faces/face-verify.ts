/**
 * Stage 2b: verification of a meshed face before it is reported, and its calibrated confidence.
 *
 * BlazeFace and facemesh were trained on human faces only and say "face" with high scores on
 * dog, squirrel and tiger heads, cartoon monkeys and clutter (detector 0.5–0.7, face flag up to
 * 0.97). The third, independent witness is `faceres`, the attribute model that runs on every
 * reported face anyway: its 1024-channel descriptor (a ReLU + global-average-pool output, all
 * values ≥ 0) lights up many channels on a human face and few on anything else. We measure that
 * as the descriptor's *spread*, ‖d‖₁ / ‖d‖₂ (√ of the effective number of active channels, 1..32);
 * it does not depend on identity, so no reference faces are needed.
 *
 * Measured with `npm run eval:faces` (docs/faces.md, "Verification"): real faces 13.0–19.5 (the
 * lowest on a face blurred by σ 2.5 px and on 19 px faces), non-human candidates that reach
 * facemesh ≤ 9.4 on the negative set's tuning half.
 */
import { clamp01 } from '../../inference';

/** Named thresholds of the verification rules. */
export const FACE_VERIFY_RULES = {
  /** Below this descriptor spread the face is rejected (gap 9.4 … 13.0 on the tuning data). */
  minDescriptorSpread: 11,
  /**
   * With PARTIAL (opt-in occlusion tolerance): a covered lower face lights fewer channels —
   * 10.2–16.2 on four portraits with the lower 40–55 % covered — so the bar is lower there.
   */
  partialMinDescriptorSpread: 10,
  /** From this spread the descriptor term of the confidence is 1 (most sharp real faces: ≥ 15). */
  fullDescriptorSpread: 15,
} as const;

/** The evidence one face is judged on. */
export interface FaceEvidence {
  /** BlazeFace score (sigmoid, 0..1). */
  detectorScore: number;
  /** facemesh face flag (probability, 0..1). */
  faceFlag: number;
  /** ‖d‖₁ / ‖d‖₂ of faceres' descriptor (see `descriptorSpread`). */
  descriptorSpread: number;
}

/** Verdict of `verifyFace`. */
export interface FaceVerdict {
  accepted: boolean;
  /** 0..1, see `faceConfidence`. */
  confidence: number;
}

/**
 * ‖d‖₁ / ‖d‖₂ of a non-negative descriptor: 1 when one channel carries everything, √n when all
 * n channels are equal. 0 for an all-zero vector.
 */
export function descriptorSpread(d: ArrayLike<number>): number {
  let l1 = 0;
  let l2 = 0;
  for (let i = 0; i < d.length; i++) {
    const v = d[i]!;
    l1 += Math.abs(v);
    l2 += v * v;
  }
  return l2 > 0 ? l1 / Math.sqrt(l2) : 0;
}

/**
 * Calibrated confidence 0..1: the mean of three terms — the detector score, facemesh's face flag
 * and the descriptor term (spread ramped from `minDescriptorSpread` → 0 to `fullDescriptorSpread`
 * → 1). A face the models all agree on scores ≥ 0.9; a face only the detector and facemesh
 * believe in cannot exceed 2/3.
 */
export function faceConfidence(e: FaceEvidence): number {
  const r = FACE_VERIFY_RULES;
  const descriptor = clamp01((e.descriptorSpread - r.minDescriptorSpread) / (r.fullDescriptorSpread - r.minDescriptorSpread));
  return (clamp01(e.detectorScore) + clamp01(e.faceFlag) + descriptor) / 3;
}

/**
 * Accepts a face whose descriptor spread reaches `minDescriptorSpread` (`partialMinDescriptorSpread`
 * when the PARTIAL selector is on); returns its confidence.
 */
export function verifyFace(e: FaceEvidence, partial = false): FaceVerdict {
  const r = FACE_VERIFY_RULES;
  const min = partial ? r.partialMinDescriptorSpread : r.minDescriptorSpread;
  return { accepted: e.descriptorSpread >= min, confidence: faceConfidence(e) };
}
