/** Fixture inputs for the TFLite models (parity check and fixture evaluation); random ones come from ../parity-inputs.ts. */
import { join } from 'node:path';
import sharp from 'sharp';
import { fixturesDir } from '../../convert/fixtures';
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
