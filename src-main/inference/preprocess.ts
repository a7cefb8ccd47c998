/**
 * The one preprocessing step of every image model (decode → preprocess → session →
 * postprocess): turns an `RgbImage` into the model's input tensor exactly as the manifest's
 * `preprocess` object says (size, resize mode, interpolation, channels, layout, value mapping).
 * No numbers live here; they are the model's data.
 */
import { AppError, BugError } from '../core';
import { resizeBilinearToTensor } from './bilinear';
import { resizeRgb, type RgbImage } from './image';
import type { ModelSpec, Preprocess } from './manifest';
import { atBatch, DYNAMIC_BATCH, type FloatTensor, type TensorMap } from './tensor';
import { warpToTensor, type WarpTarget, type Window } from './warp';
import type { WindowSource } from './window-source';

/** Per-channel affine map of 0..255 pixels to tensor values: value = pixel·scale[c] + offset[c]. */
export interface ValueMap {
  scale: readonly [number, number, number];
  offset: readonly [number, number, number];
}

const rgb = (v: number | readonly [number, number, number]): [number, number, number] =>
  typeof v === 'number' ? [v, v, v] : [v[0], v[1], v[2]];

/** The value mapping of `pre`: scale/offset as given, or mean/std turned into scale 1/(255·std), offset −mean/std. */
export function valueMap(pre: Preprocess): ValueMap {
  if (pre.mean !== undefined || pre.std !== undefined) {
    const mean = rgb(pre.mean ?? 0);
    const std = rgb(pre.std ?? 1);
    return {
      scale: [1 / (255 * std[0]), 1 / (255 * std[1]), 1 / (255 * std[2])],
      offset: [-mean[0] / std[0], -mean[1] / std[1], -mean[2] / std[2]],
    };
  }
  return { scale: rgb(pre.scale ?? 1), offset: rgb(pre.offset ?? 0) };
}

/** The image input of a model (its first input) and its preprocessing; `model-failed` if the manifest has none. */
export function imageInput(spec: ModelSpec): { name: string; dims: readonly number[]; pre: Preprocess } {
  const input = spec.inputs[0];
  if (!input?.preprocess)
    throw new AppError('model-failed', `Model ${spec.id} declares no image preprocessing in the manifest`, { details: { model: spec.id } });
  return { name: input.name, dims: input.shape, pre: input.preprocess };
}

/** Values per input image (one batch item): width × height × channels. */
export function inputLength(spec: ModelSpec): number {
  return imageInput(spec)
    .dims.slice(1)
    .reduce((a, b) => a * b, 1);
}

/** Whether the model's graph takes any batch (manifest batch dim -1), so N windows can share one run. */
export function dynamicBatch(spec: ModelSpec): boolean {
  return imageInput(spec).dims[0] === DYNAMIC_BATCH;
}

/** Where a `srcW`×`srcH` image sits in a letterboxed input of `size` [w, h] px: scale (input px per source px) and its size there. */
export interface LetterboxFit {
  scale: number;
  width: number;
  height: number;
}

/** The letterbox fit of a `srcW`×`srcH` image in `size` [w, h] (aspect kept, at least 1 px each way). */
export function letterboxFit(srcW: number, srcH: number, size: readonly [number, number]): LetterboxFit {
  const scale = Math.min(size[0] / srcW, size[1] / srcH);
  return {
    scale,
    width: Math.min(size[0], Math.max(1, Math.round(srcW * scale))),
    height: Math.min(size[1], Math.max(1, Math.round(srcH * scale))),
  };
}

/** The letterbox frame cut to `fit` rounded up to multiples of `trim` px, at most `size` [w, h] (`preprocess.trim`). */
export function trimmedFrame(fit: LetterboxFit, size: readonly [number, number], trim: number): [number, number] {
  const up = (v: number, max: number): number => Math.min(max, Math.ceil(v / trim) * trim);
  return [up(fit.width, size[0]), up(fit.height, size[1])];
}

/**
 * An image already resized to its letterbox fit, placed at the top-left of the `pre.size` frame
 * with `pre.pad` elsewhere, mapped to tensor values (pure).
 */
export function letterboxTensor(resized: RgbImage, pre: Preprocess): FloatTensor {
  const [w, h] = pre.size;
  if (resized.width > w || resized.height > h) throw new BugError(`letterbox input must fit in ${w}×${h}`);
  const map = valueMap(pre);
  const pad = pre.pad ?? 0;
  const data = new Float32Array(w * h * 3);
  // The pad's tensor value per channel fills the frame first; the image rows overwrite their part.
  const padValue = [0, 1, 2].map((c) => pad * map.scale[c]! + map.offset[c]!);
  if (pre.layout === 'NHWC') {
    if (padValue.some((v) => v !== 0)) for (let i = 0; i < data.length; i += 3) data.set(padValue, i);
    for (let y = 0; y < resized.height; y++) mapPixels(resized.data, y * resized.width * 3, resized.width, data, y * w * 3, 'NHWC', 0, map);
  } else {
    const plane = w * h;
    for (let c = 0; c < 3; c++) data.fill(padValue[c]!, c * plane, (c + 1) * plane);
    for (let y = 0; y < resized.height; y++) mapPixels(resized.data, y * resized.width * 3, resized.width, data, y * w, 'NCHW', plane, map);
  }
  return { data, dims: pre.layout === 'NHWC' ? [1, h, w, 3] : [1, 3, h, w] };
}

/** A whole image resized (already) to `pre.size`, mapped to tensor values in `pre.layout` (pure). */
function pixelsToTensor(resized: RgbImage, pre: Preprocess): FloatTensor {
  const [w, h] = pre.size;
  const plane = w * h;
  const data = new Float32Array(plane * 3);
  mapPixels(resized.data, 0, plane, data, 0, pre.layout, plane, valueMap(pre));
  return { data, dims: pre.layout === 'NHWC' ? [1, h, w, 3] : [1, 3, h, w] };
}

/**
 * `count` RGB pixels from `src` (bytes, from `srcAt`) into `dst` (from `dstAt`) as
 * value·scale[c] + offset[c]: interleaved for NHWC, into three planes `plane` apart for NCHW. One
 * tight loop per layout (and a plain copy for the identity map): these run on every image.
 */
function mapPixels(
  src: Uint8Array,
  srcAt: number,
  count: number,
  dst: Float32Array,
  dstAt: number,
  layout: Preprocess['layout'],
  plane: number,
  { scale, offset }: ValueMap,
): void {
  const [s0, s1, s2] = scale;
  const [o0, o1, o2] = offset;
  if (layout === 'NHWC') {
    const n = count * 3;
    if (s0 === 1 && s1 === 1 && s2 === 1 && o0 === 0 && o1 === 0 && o2 === 0) {
      dst.set(src.subarray(srcAt, srcAt + n), dstAt); // native byte → float conversion
      return;
    }
    for (let i = 0; i < n; i += 3) {
      dst[dstAt + i] = src[srcAt + i]! * s0 + o0;
      dst[dstAt + i + 1] = src[srcAt + i + 1]! * s1 + o1;
      dst[dstAt + i + 2] = src[srcAt + i + 2]! * s2 + o2;
    }
    return;
  }
  for (let p = 0; p < count; p++) {
    const i = srcAt + p * 3;
    dst[dstAt + p] = src[i]! * s0 + o0;
    dst[dstAt + plane + p] = src[i + 1]! * s1 + o1;
    dst[dstAt + 2 * plane + p] = src[i + 2]! * s2 + o2;
  }
}

/** The warp target of a `window` preprocessing (one value mapping for all channels). */
export function warpTarget(pre: Preprocess): WarpTarget {
  const { scale, offset } = valueMap(pre);
  return {
    side: pre.size[0],
    layout: pre.layout === 'NHWC' ? 'nhwc' : 'nchw',
    scale: scale[0],
    offset: offset[0],
    channels: pre.channels === 'grey' ? 1 : 3,
  };
}

/**
 * Feeds of a `window` model: the square window `win` of `img` warped into the input (pure,
 * synchronous; `out` is an optional buffer of `inputLength(spec)` floats to reuse).
 */
export function windowFeeds(img: RgbImage, spec: ModelSpec, win: Window, out?: Float32Array): TensorMap {
  return windowBatchFeeds(img, spec, [win], out);
}

/**
 * Feeds of a `window` model for several windows in one batch (item i = `wins[i]`; pure,
 * synchronous; `out` is an optional buffer of at least `wins.length · inputLength(spec)` floats).
 * More than one window needs a dynamic-batch model.
 */
export function windowBatchFeeds(img: RgbImage, spec: ModelSpec, wins: readonly Window[], out?: Float32Array): TensorMap {
  return sourcedWindowFeeds(
    spec,
    wins.map((win) => ({ img, win })),
    out,
  );
}

/**
 * `windowBatchFeeds` with each window sampled from its own image (`windowSource`: the image, its
 * working copy or a half-size copy).
 */
export function sourcedWindowFeeds(spec: ModelSpec, items: readonly WindowSource[], out?: Float32Array): TensorMap {
  const { name, dims, pre } = imageInput(spec);
  if (pre.resize !== 'window') throw new BugError(`model ${spec.id} is not preprocessed by window`);
  if (items.length < 1 || (items.length > 1 && dims[0] !== DYNAMIC_BATCH))
    throw new BugError(`model ${spec.id} takes one window per run, not ${items.length}`);
  const len = inputLength(spec);
  const data = out ? out.subarray(0, items.length * len) : new Float32Array(items.length * len);
  const target = warpTarget(pre);
  items.forEach((it, i) => warpToTensor(it.img, it.win, target, data.subarray(i * len, (i + 1) * len)));
  return { [name]: { data, dims: atBatch(dims, items.length) } };
}

/**
 * Feeds of a whole-image model (`stretch` or `letterbox`) as its manifest entry says:
 * - stretch + bilinear-align-corners: TF.js `resizeBilinear` straight into the tensor;
 * - stretch + bilinear: libvips linear resize to `size` (area-averaging when shrinking);
 * - letterbox: libvips linear resize to the fit, top-left in the frame, `pad` elsewhere.
 * `window` models take `windowFeeds`.
 */
export async function imageFeeds(img: RgbImage, spec: ModelSpec): Promise<TensorMap> {
  const { name, pre } = imageInput(spec);
  const [w, h] = pre.size;
  if (pre.resize === 'window') throw new BugError(`model ${spec.id} needs a window (windowFeeds)`);
  if (pre.resize === 'letterbox') {
    const fit = letterboxFit(img.width, img.height, pre.size);
    const resized = await resizeRgb(img, fit.width, fit.height, { fit: 'fill', kernel: 'linear' });
    return { [name]: letterboxTensor(resized, pre.trim ? { ...pre, size: trimmedFrame(fit, pre.size, pre.trim) } : pre) };
  }
  if (pre.interpolation === 'bilinear-align-corners') {
    const { scale, offset } = valueMap(pre);
    if (scale.some((s) => s !== scale[0]) || offset.some((o) => o !== offset[0]))
      throw new BugError(`model ${spec.id}: align-corners resize takes one value mapping for all channels`);
    return { [name]: resizeBilinearToTensor(img, w, h, { alignCorners: true, layout: pre.layout, scale: scale[0], offset: offset[0] }) };
  }
  const [fw, fh] = pre.wideFrame ? stretchFrame(img.width, img.height, pre) : [w, h];
  // Only an image smaller than the frame both ways: one shrunk along a side keeps the bilinear
  // features the drawing vocabulary's table was embedded with (its drawings are 256 px long).
  const kernel = pre.enlarge && fw > img.width && fh > img.height ? 'cubic' : 'linear';
  return { [name]: pixelsToTensor(await resizeRgb(img, fw, fh, { fit: 'fill', kernel }), { ...pre, size: [fw, fh] }) };
}

/**
 * The frame [width, height] a `stretch` input is resized to: `pre.size`, or for an image beyond
 * `pre.wideFrame.fromAspect` a frame with the image's aspect (capped at `maxAspect`) and about the
 * same pixel count, each side the nearest `step`·k + `offset` (pure). DeepLab squeezed a 3:1
 * panorama into its square three times over and lost its subjects: a tripled cat photo read as
 * 26 % cat and 23 % potted plant, a tripled family photo as no person at all; at 561 × 193 they
 * are 88 % cat and 67 % person, as the single photos (87 %, 74 %), at the same cost.
 */
export function stretchFrame(width: number, height: number, pre: Preprocess): [number, number] {
  const wide = pre.wideFrame;
  const aspect = width / height;
  if (!wide || Math.max(aspect, 1 / aspect) <= wide.fromAspect) return [pre.size[0], pre.size[1]];
  const kept = Math.min(wide.maxAspect, Math.max(1 / wide.maxAspect, aspect));
  const area = pre.size[0] * pre.size[1];
  const side = (v: number): number => Math.max(1, Math.round((v - wide.offset) / wide.step)) * wide.step + wide.offset;
  return [side(Math.sqrt(area * kept)), side(Math.sqrt(area / kept))];
}
