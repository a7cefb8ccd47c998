/** Exact IEEE 754 binary16 -> binary32 conversion (TF.js float16 weights decode the same way). */

/** binary16 bits -> float32 value (exact; every half is representable in single precision). */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}
