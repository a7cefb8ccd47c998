/**
 * Where a face window is sampled from. A window that shrinks a lot into its model input (a 1 500
 * px face of a 12 MP photo into facemesh's 192 px) needs the warp's area average of up to 4×4
 * bilinear taps per output pixel, ≈ 15–35 ms per crop in JavaScript. When the photo has a
 * working copy (`workingCopy`, made anyway for its whole-image inputs) in which the window still
 * covers at least `MIN_COPY_STEP` × the input's side, the window is sampled from the copy: fewer
 * taps, the same detail. Other windows (every face of a photo up to 2 560 px) are sampled from
 * the image itself, exactly as before.
 */
import { workingCopy, type RgbImage } from './image';
import type { ModelSpec } from './manifest';
import { imageInput, sourcedWindowFeeds } from './preprocess';
import type { TensorMap } from './tensor';
import type { Window } from './warp';

/** Copy px per input px a window must keep in the working copy to be sampled from it. */
export const MIN_COPY_STEP = 2;

/** A window and the image it is sampled from (the image or its working copy, in that image's px). */
export interface WindowSource {
  img: RgbImage;
  win: Window;
}

/** The image and window to sample `win` of `img` from into a `side`-px input. */
export async function windowSource(img: RgbImage, win: Window, side: number): Promise<WindowSource> {
  const copy = await workingCopy(img);
  if (copy === img) return { img, win };
  const sx = copy.width / img.width;
  const sy = copy.height / img.height;
  const size = win.size * Math.sqrt(sx * sy);
  if (size < MIN_COPY_STEP * side) return { img, win };
  return { img: copy, win: { cx: win.cx * sx, cy: win.cy * sy, size, angleRad: win.angleRad } };
}

/**
 * Feeds of a `window` model for the windows `wins` of `img` (one batch; see `windowBatchFeeds`),
 * each sampled from the photo or its working copy (`windowSource`): what every per-face model
 * reads.
 */
export async function sampledWindowFeeds(img: RgbImage, spec: ModelSpec, wins: readonly Window[], out?: Float32Array): Promise<TensorMap> {
  const side = imageInput(spec).pre.size[0];
  return sourcedWindowFeeds(spec, await Promise.all(wins.map((w) => windowSource(img, w, side))), out);
}
