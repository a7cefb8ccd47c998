/**
 * Square-window filters over row-major planes, separable (rows, then columns) and clipped at the
 * borders: the same values as the direct (2r+1)² loops at a few operations per pixel.
 */

/** The maximum of `v` over the (2r+1)² square around each pixel, clipped at the borders. */
export function maxFilter(v: Float32Array, w: number, h: number, r: number): Float32Array {
  const rows = new Float32Array(w * h);
  const line = new MaxLine(Math.max(w, h), r);
  for (let y = 0; y < h; y++) line.filter(v, y * w, 1, w, rows);
  const out = new Float32Array(w * h);
  for (let x = 0; x < w; x++) line.filter(rows, x, w, h, out);
  return out;
}

/** 1 where `mask` has a 1 within the (2r+1)² square around the pixel (Chebyshev distance ≤ r), clipped at the borders. */
export function dilateMask(mask: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const rows = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let last = -Infinity; // x of the latest set pixel at or left of x
    for (let x = 0; x < w + r; x++) {
      if (x < w && mask[y * w + x]) last = x;
      const at = x - r; // window at..: x − 2r .. x
      if (at >= 0 && last >= at - r) rows[y * w + at] = 1;
    }
  }
  const out = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    let last = -Infinity;
    for (let y = 0; y < h + r; y++) {
      if (y < h && rows[y * w + x]) last = y;
      const at = y - r;
      if (at >= 0 && last >= at - r) out[at * w + x] = 1;
    }
  }
  return out;
}

/**
 * Running maximum over a window of ±`r` samples along one line of an image, clipped at the line's
 * ends (van Herk/Gil-Werman: prefix and suffix maxima over blocks of 2r + 1, so ~3 comparisons per
 * sample whatever r; the same values as the direct loop, since max is exact).
 */
class MaxLine {
  private readonly padded: Float32Array;
  private readonly prefix: Float32Array;
  private readonly suffix: Float32Array;

  constructor(
    maxLength: number,
    private readonly r: number,
  ) {
    const n = maxLength + 2 * r + (2 * r + 1); // room to pad and round up to whole blocks
    this.padded = new Float32Array(n);
    this.prefix = new Float32Array(n);
    this.suffix = new Float32Array(n);
  }

  /** Writes to `dst` at `start + i·step` the max of `src` over samples i−r..i+r (i < length) of that line. */
  filter(src: Float32Array, start: number, step: number, length: number, dst: Float32Array): void {
    const { r, padded, prefix, suffix } = this;
    const k = 2 * r + 1;
    const n = Math.ceil((length + 2 * r) / k) * k;
    padded.fill(-Infinity, 0, n);
    for (let i = 0; i < length; i++) padded[i + r] = src[start + i * step]!;
    for (let b = 0; b < n; b += k) {
      prefix[b] = padded[b]!;
      for (let i = b + 1; i < b + k; i++) prefix[i] = padded[i]! > prefix[i - 1]! ? padded[i]! : prefix[i - 1]!;
      suffix[b + k - 1] = padded[b + k - 1]!;
      for (let i = b + k - 2; i >= b; i--) suffix[i] = padded[i]! > suffix[i + 1]! ? padded[i]! : suffix[i + 1]!;
    }
    // Output i covers padded[i .. i + 2r]: the suffix of its first block and the prefix of the next.
    for (let i = 0; i < length; i++) {
      const a = suffix[i]!;
      const b = prefix[i + 2 * r]!;
      dst[start + i * step] = a > b ? a : b;
    }
  }
}
