/** Fixture and random inputs for the TFLite models (parity check and fixture evaluation). */
import { join } from 'node:path';
import sharp from 'sharp';
import { fixturesDir } from '../fixtures';
import type { TfliteBuildSpec } from './specs';

/** The whole fixture stretched to the NHWC input size (sharp bilinear), mapped 0..255 -> range. */
export async function fixtureInput(spec: TfliteBuildSpec, file: string): Promise<Float32Array> {
  const [, h, w] = spec.input.shape as [number, number, number, number];
  const { data } = await sharp(join(fixturesDir, file))
    .removeAlpha()
    .toColourspace('srgb')
    .resize(w, h, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [lo, hi] = spec.input.range;
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = (data[i]! / 255) * (hi - lo) + lo;
  return out;
}

/** Seeded uniform values over the input range (mulberry32, as models/convert/parity-inputs.ts). */
export function randomInput(spec: TfliteBuildSpec, seed: number): Float32Array {
  const n = spec.input.shape.reduce((x, y) => x * y, 1);
  const [lo, hi] = spec.input.range;
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = lo + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * (hi - lo);
  }
  return out;
}
