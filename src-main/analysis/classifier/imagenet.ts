import { cropRgb, imageFeeds, type ModelRunner, type RgbImage, type TensorMap } from '../../inference';
import { contentBox, hasPlainFrame } from './content-box';
import { IMAGENET_HIERARCHY } from './hierarchy';
import { classifierWindows, windowViews } from '../wide-windows';

/** Manifest id of the ImageNet-1k classifier (Coral's quantised MobileNetV2 1.0, converted to ONNX). */
export const IMAGENET_MODEL_ID = 'mobilenet-v2-imagenet';

/** One class of the top-k: model output index and its softmax probability. */
export interface ClassScore {
  index: number;
  p: number;
}

/** The model's outputs: softmax probabilities and the pooled features before the logits. */
export const CLASSIFIER_OUTPUTS = { probabilities: 'probabilities', features: 'features' } as const;
/** Length of the pooled feature vector (MobileNetV2 1.0's last 1×1 convolution). */
export const CLASSIFIER_FEATURES = 1280;

/** The top-k classes and the image's pooled features (uint8 steps, zero point 0: compare by cosine). */
export interface Classified {
  classes: ClassScore[];
  /** Absent when the model has no `features` output. */
  features?: Float32Array;
}

/** Top-k classes kept per image; aggregation by word (tabby + tiger cat + Egyptian cat) needs several. */
export const CLASSIFIER_TOP_K = 10;

/**
 * The `k` most probable classes, background excluded, from the model's single output: 1 001
 * dequantised softmax probabilities (index 0 = background). Probabilities are renormalised to sum
 * to 1, since uint8 dequantisation (steps of 1/256) leaves the sum slightly off.
 */
export function classifierTopK(outputs: TensorMap, k = CLASSIFIER_TOP_K): ClassScore[] {
  const out = (outputs[CLASSIFIER_OUTPUTS.probabilities] ?? Object.values(outputs)[0])?.data;
  const n = IMAGENET_HIERARCHY.classes.length;
  if (!out || out.length !== n) throw new Error(`classifier returned ${out?.length ?? 0} scores, expected ${n}`);
  let sum = 0;
  for (const v of out) sum += Math.max(0, v);
  const scores: ClassScore[] = [];
  for (let i = 0; i < n; i++) if (i !== IMAGENET_HIERARCHY.background && out[i]! > 0) scores.push({ index: i, p: out[i]! / (sum || 1) });
  return scores.sort((a, b) => b.p - a.p).slice(0, k);
}

/**
 * decode → preprocess → session → postprocess on the whole image, or on its subject when that
 * stands on a plain background (content-box.ts): its top-k classes. The input is
 * the manifest's: for Coral's uint8 model 0..255 RGB after a libvips linear resize of the whole
 * image to 224×224 (area-averaging when shrinking, as the PIL resize of Coral's examples); its
 * first layer quantises with scale 1/128, zero point 128.
 */
export async function classifyImage(img: RgbImage, runner: ModelRunner, signal?: AbortSignal): Promise<ClassScore[]> {
  return (await classifyWithFeatures(img, runner, signal)).classes;
}

/** The probabilities of several runs averaged, as one output map (`classifierTopK` reads it). */
function meanProbabilities(runs: readonly TensorMap[]): TensorMap {
  const first = runs[0]![CLASSIFIER_OUTPUTS.probabilities] ?? Object.values(runs[0]!)[0]!;
  const mean = new Float32Array(first.data.length);
  for (const outputs of runs) {
    const p = (outputs[CLASSIFIER_OUTPUTS.probabilities] ?? Object.values(outputs)[0]!).data;
    for (let i = 0; i < mean.length; i++) mean[i]! += p[i]! / runs.length;
  }
  return { [CLASSIFIER_OUTPUTS.probabilities]: { data: mean, dims: first.dims } };
}

/** `classifyImage` plus the pooled features of the same run (the drawing vocabulary's descriptor). */
export async function classifyWithFeatures(img: RgbImage, runner: ModelRunner, signal?: AbortSignal): Promise<Classified> {
  const run = async (pixels: RgbImage): Promise<TensorMap> =>
    runner.run(IMAGENET_MODEL_ID, await imageFeeds(pixels, runner.spec(IMAGENET_MODEL_ID)), signal);
  // A subject on a plain background is classified cut out (content-box.ts); the features stay
  // the whole image's, as the drawing vocabulary's table was embedded from whole drawings.
  const box = await contentBox(img);
  // A wide scene (a panorama, a banner) is classified by windows of a usual photo's shape
  // (wide-windows.ts); a thing on a plain background stays whole: a car or a bus seen from the
  // side is wide itself, and its halves are no car.
  // (The frame is read again only for a wide image without a cut-out, not for every photo.)
  const windows = box ? [] : classifierWindows(img.width, img.height);
  const wide = windows.length > 1 && !hasPlainFrame(img);
  const views = wide ? (await windowViews(img, windows)).map((v) => v.pixels) : box ? [cropRgb(img, box)] : [];
  const [outputs, ...viewed] = await Promise.all([run(img), ...views.map(run)]);
  const f = outputs[CLASSIFIER_OUTPUTS.features]?.data;
  // A model file without the features output (an older build) still classifies.
  if (f && f.length !== CLASSIFIER_FEATURES) throw new Error(`classifier returned ${f.length} features, expected ${CLASSIFIER_FEATURES}`);
  const classified = viewed.length > 1 ? meanProbabilities(viewed) : (viewed[0] ?? outputs);
  return { classes: classifierTopK(classified), features: f ? Float32Array.from(f) : undefined };
}
