// The separable window filters give exactly what the direct (2r+1)² loops give, borders included.
import { describe, expect, it } from 'vitest';
import { dilateMask, maxFilter } from '../../../../src-main/analysis/pixels/window-filters';

/** Seeded pseudo-random values 0..1 (reproducible). */
function random(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 16807) % 2147483647;
    out[i] = s / 2147483647;
  }
  return out;
}

function directMax(v: Float32Array, w: number, h: number, r: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let m = -Infinity;
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) m = Math.max(m, v[yy * w + xx]!);
      out[y * w + x] = m;
    }
  return out;
}

const sizes: [number, number, number][] = [
  [1, 1, 4],
  [3, 2, 4],
  [17, 9, 4],
  [40, 31, 2],
  [9, 9, 1],
  [25, 7, 0],
];

describe('window filters', () => {
  it.each(sizes)('maxFilter equals the direct loop on %i×%i, r %i', (w, h, r) => {
    const v = random(w * h, w * 31 + h);
    expect(Array.from(maxFilter(v, w, h, r))).toEqual(Array.from(directMax(v, w, h, r)));
  });

  it.each(sizes)('dilateMask equals the direct window search on %i×%i, r %i', (w, h, r) => {
    const v = random(w * h, w * 17 + h);
    const mask = Uint8Array.from(v, (x) => (x > 0.9 ? 1 : 0));
    const direct = Array.from(directMax(Float32Array.from(mask), w, h, r), (m) => (m > 0 ? 1 : 0));
    expect(Array.from(dilateMask(mask, w, h, r))).toEqual(direct);
    expect(mask.includes(1) || w * h < 30).toBe(true); // something to dilate
  });
});
