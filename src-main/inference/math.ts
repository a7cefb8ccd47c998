/**
 * Scalar helpers shared by every pipeline and rule: the one logistic function and the one clamp.
 * Pure, no I/O.
 */

/**
 * Logistic function 1/(1+e^-x), 0..1. Saturates cleanly: e^-x overflows to Infinity for very
 * negative x and the result is exactly 0, never NaN. Kept in this plain form because model
 * outputs and calibrations were measured with it (bit-identical scores).
 */
export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** `x` limited to `lo..hi` (assumes lo ≤ hi; NaN stays NaN). */
export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** `x` limited to 0..1 (a probability or a share). */
export function clamp01(x: number): number {
  return clamp(x, 0, 1);
}
