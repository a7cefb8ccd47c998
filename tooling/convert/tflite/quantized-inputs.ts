/**
 * Inputs of the quantized models' parity check: fixture images as RGB bytes stretched to the input
 * size by sharp (bilinear, as the manifest's `preprocess`), plus one seeded random image. The
 * reference recorder (TFLite interpreter) and the vitest parity test (ONNX Runtime) both call this,
 * so both runtimes see identical bytes (checked through `inputSha256`).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import { fixturesDir } from '../fixtures';
import { randomInput } from '../parity-inputs';
import type { QuantizedBuildSpec } from './quantized-specs';

export interface QuantizedCase {
  name: string;
  /** NHWC RGB bytes, exactly the model input. */
  data: Uint8Array;
}

/** Seed of the random case (shared with the float TFLite and TF.js parity checks). */
export const RANDOM_SEED = 1234;

/** RGB bytes of a fixture stretched to `spec`'s input size (or to `size` x `size`: a free-spatial graph's run size). */
export async function fixturePixels(spec: QuantizedBuildSpec, file: string, size?: number): Promise<Uint8Array> {
  const [w, h] = size === undefined ? spec.input.preprocess.size : [size, size];
  const { data } = await sharp(join(fixturesDir, file))
    .removeAlpha()
    .toColourspace('srgb')
    .resize(w, h, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

/** Uniform random bytes 0..255 (seeded). */
export function randomPixels(spec: QuantizedBuildSpec, seed = RANDOM_SEED): Uint8Array {
  return Uint8Array.from(randomInput({ input: { shape: spec.input.shape, range: [0, 256] } }, seed), (v) => Math.min(255, Math.floor(v)));
}

export async function quantizedCases(spec: QuantizedBuildSpec): Promise<QuantizedCase[]> {
  const cases: QuantizedCase[] = [];
  for (const file of spec.parityImages) cases.push({ name: file, data: await fixturePixels(spec, file) });
  cases.push({ name: 'random', data: randomPixels(spec) });
  return cases;
}

export const bytesSha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
