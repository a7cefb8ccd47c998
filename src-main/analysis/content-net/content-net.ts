/**
 * The photo-content network: one MobileNetV2 (nsfwjs "mid", manifest id `nsfw-mobilenet-v2-mid`)
 * read three ways — its five-class softmax gives the Adult scores (`adult/`) and P(Drawing) for
 * the image type (`image-type/`), and its 1792-d pooled `features` are the place descriptor's
 * backbone (`gallery/place-descriptor.ts`). The manifest id and file name keep the source's name,
 * which the build and parity tooling key on.
 */
import { imageFeeds, type ModelRunner, type ModelSpec, type RgbImage, type TensorMap } from '../../inference';

/** Manifest id of the photo-content network. */
export const CONTENT_NET_MODEL_ID = 'nsfw-mobilenet-v2-mid';
/** Output order of the network's softmax. */
export const CONTENT_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;
export type ContentClass = (typeof CONTENT_CLASSES)[number];
export type ContentProbabilities = Record<ContentClass, number>;

/**
 * The network's input as its manifest entry says: for this model x/255 after TF.js
 * `resizeBilinear` of the whole image to 224×224 with alignCorners (nsfwjs 4.2.1 `infer()`;
 * any other resize shifts the scores by several points). NHWC float32 0..1.
 */
export function contentNetFeeds(img: RgbImage, spec: ModelSpec): Promise<TensorMap> {
  return imageFeeds(img, spec);
}

/** decode → preprocess → session: the network's outputs (`probabilities`, `features`) on the whole image. */
export async function runContentNet(img: RgbImage, runner: ModelRunner, signal?: AbortSignal): Promise<TensorMap> {
  return runner.run(CONTENT_NET_MODEL_ID, await contentNetFeeds(img, runner.spec(CONTENT_NET_MODEL_ID)), signal);
}

/** Reads the softmax output `probabilities` `[1,5]` into named class probabilities. */
export function contentProbabilities(outputs: TensorMap): ContentProbabilities {
  const p = outputs['probabilities']?.data;
  if (!p || p.length < 5) throw new Error(`${CONTENT_NET_MODEL_ID} returned no probabilities`);
  return { Drawing: p[0]!, Hentai: p[1]!, Neutral: p[2]!, Porn: p[3]!, Sexy: p[4]! };
}
