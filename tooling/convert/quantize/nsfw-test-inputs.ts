/**
 * Inputs the quantiser's tests feed the nsfw MobileNetV2: real photos of the repository's fixture
 * folders, stretched to its NHWC [1,224,224,3] input in 0..1 (not the product's exact
 * preprocessing, which these tests do not need), and its `probabilities` output.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import type { Feeds } from './calibrate';

const root = join(import.meta.dirname, '../../..');

/** The first `n` photos (JPEG/PNG, name order) of a folder relative to the repository root. */
export const photoFiles = (dir: string, n: number): string[] =>
  readdirSync(join(root, dir))
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .sort()
    .slice(0, n)
    .map((f) => join(root, dir, f));

/** The nsfw model's feed for a photo. */
export async function nsfwFeed(file: string): Promise<Feeds> {
  const { data } = await sharp(file).removeAlpha().resize(224, 224, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  return { input: { dtype: 'float32', dims: [1, 224, 224, 3], data: Float32Array.from(data, (v) => v / 255) } };
}

/** The nsfw model's class probabilities for a feed. */
export const nsfwProbabilities = async (s: ort.InferenceSession, f: Feeds): Promise<Float32Array> =>
  (await s.run({ input: new ort.Tensor('float32', f['input']!.data as Float32Array, f['input']!.dims) }))['probabilities']!
    .data as Float32Array;
