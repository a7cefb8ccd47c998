import { resizeRgb } from '../../inference';
import type { RgbPixels } from '../pixels/types';
import type { Tensor } from '../tensor/resize';
import type { ModelRunner } from '../tensor/runner';
import { IMAGENET_HIERARCHY } from './hierarchy';

/** Manifest id of the ImageNet-1k classifier (Coral's quantised MobileNetV2 1.0, converted to ONNX). */
export const IMAGENET_MODEL_ID = 'mobilenet-v2-imagenet';

/**
 * The classifier's input contract: the whole image resized (aspect not kept) to `size`², RGB
 * values mapped by `value × scale + offset` into an NHWC float tensor named `input`. Coral's
 * uint8 model takes 0..255 RGB (its first layer quantises with scale 1/128, zero point 128), so
 * scale 1 and offset 0.
 */
export interface ClassifierPreprocess {
  input: string;
  size: number;
  scale: number;
  offset: number;
}

export const IMAGENET_PREPROCESS: ClassifierPreprocess = { input: 'input', size: 224, scale: 1, offset: 0 };

/** One class of the top-k: model output index and its softmax probability. */
export interface ClassScore {
  index: number;
  p: number;
}

/** Top-k classes kept per image; aggregation by word (tabby + tiger cat + Egyptian cat) needs several. */
export const CLASSIFIER_TOP_K = 10;

/**
 * The classifier input: libvips linear resize of the whole image to 224×224 (area-averaging when
 * shrinking, as the PIL resize of Coral's examples), then NHWC float RGB × scale + offset.
 */
export async function classifierFeeds(img: RgbPixels, pre: ClassifierPreprocess = IMAGENET_PREPROCESS): Promise<Record<string, Tensor>> {
  const resized = await resizeRgb({ ...img, channels: 3 }, pre.size, pre.size, { fit: 'fill', kernel: 'linear' });
  const data = new Float32Array(resized.data.length);
  for (let i = 0; i < data.length; i++) data[i] = resized.data[i]! * pre.scale + pre.offset;
  return { [pre.input]: { data, dims: [1, pre.size, pre.size, 3] } };
}

/**
 * The `k` most probable classes, background excluded, from the model's single output: 1 001
 * dequantised softmax probabilities (index 0 = background). Probabilities are renormalised to sum
 * to 1, since uint8 dequantisation (steps of 1/256) leaves the sum slightly off.
 */
export function classifierTopK(outputs: Record<string, Tensor>, k = CLASSIFIER_TOP_K): ClassScore[] {
  const out = Object.values(outputs)[0]?.data;
  const n = IMAGENET_HIERARCHY.classes.length;
  if (!out || out.length !== n) throw new Error(`classifier returned ${out?.length ?? 0} scores, expected ${n}`);
  let sum = 0;
  for (const v of out) sum += Math.max(0, v);
  const scores: ClassScore[] = [];
  for (let i = 0; i < n; i++) if (i !== IMAGENET_HIERARCHY.background && out[i]! > 0) scores.push({ index: i, p: out[i]! / (sum || 1) });
  return scores.sort((a, b) => b.p - a.p).slice(0, k);
}

/** Runs the classifier on the whole image: its top-k classes. */
export async function classifyImage(img: RgbPixels, run: ModelRunner, signal?: AbortSignal): Promise<ClassScore[]> {
  return classifierTopK(await run(IMAGENET_MODEL_ID, await classifierFeeds(img), signal));
}
