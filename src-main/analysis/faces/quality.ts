/**
 * Kairos `quality` (0..1): an equal-weight mix of four terms, each 0..1:
 * - size: face side from 16 px (0) to 96 px (1), linear;
 * - sharpness: Laplacian std of the face patch from 4 (0) to 24 (1) luma units, linear;
 * - pose: cos(yaw)·cos(pitch), 1 for a frontal face, 0 at 90°;
 * - confidence: the detection confidence.
 */

/** Inputs of `faceQuality`. */
export interface QualityInputs {
  /** Face box side in image px. */
  sidePx: number;
  /** Laplacian std of the upright face patch (luma units). */
  sharpness: number;
  yawDeg: number;
  pitchDeg: number;
  /** 0..1 */
  confidence: number;
}

const ramp = (x: number, lo: number, hi: number): number => Math.min(1, Math.max(0, (x - lo) / (hi - lo)));

/** The documented quality mix, 0..1. */
export function faceQuality(q: QualityInputs): number {
  const rad = Math.PI / 180;
  const size = ramp(q.sidePx, 16, 96);
  const sharp = ramp(q.sharpness, 4, 24);
  const pose = Math.max(0, Math.cos(q.yawDeg * rad) * Math.cos(q.pitchDeg * rad));
  return (size + sharp + pose + Math.min(1, Math.max(0, q.confidence))) / 4;
}
