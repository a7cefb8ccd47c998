/**
 * Where a face window is sampled from. A window that shrinks a lot into its model input (a 1 500
 * px face of a 12 MP photo into facemesh's 192 px, a 600 px face of a portrait into emotion's 64
 * px) needs the warp's area average of up to 4×4 bilinear taps per output pixel, ≈ 15–35 ms per
 * crop in JavaScript. So a window is sampled from a smaller copy of the image when one keeps enough
 * copy px per input px:
 * - a photo with a working copy (`workingCopy`, made anyway for its whole-image inputs) from the
 *   copy, when the window covers `MIN_COPY_STEP` × the input's side there; else from the photo
 *   itself, never halved (a small face of a large photo: a half-size copy of every pixel would
 *   cost more than the taps it saves);
 * - then, while the window covers `HALVE_FROM_STEP` × the input's side, from the half-size copy
 *   (`halved-copy.ts`, filled only where windows are sampled) of that image, at most `MAX_HALVINGS`
 *   times.
 * Smaller windows (every face of a group photo, most faces of a portrait under 600 px) are sampled
 * from the image as before.
 */
import { halvedWindow } from './halved-copy';
import { workingCopy, type RgbImage } from './image';
import type { ModelSpec } from './manifest';
import { imageInput, sourcedWindowFeeds } from './preprocess';
import type { TensorMap } from './tensor';
import type { Window } from './warp';

/** Copy px per input px a window must keep in the working copy to be sampled from it. */
export const MIN_COPY_STEP = 2;
/**
 * Copy px per input px from which a window is sampled from the half-size copy instead: it keeps
 * 1.25–2.5 px per input px there (the warp takes 1 or 2 × 2 taps). Measured on the people crops
 * and portraits enlarged 2× and 3× (age, gender, mesh, gallery descriptor and emotion of each
 * face against the crop as is): 2.5 agrees with the crop as well as the full-size warp does,
 * where halving from 2 px per input px moved emotion scores more at 3× (docs/benchmarks.md).
 */
export const HALVE_FROM_STEP = 2.5;
/**
 * Half-size copies a window goes down at most: 4 take a 1 280 px window (a working copy's whole
 * side) into emotion's 64 px input at 1.25 copy px per input px.
 */
export const MAX_HALVINGS = 4;

/** A window and the image it is sampled from (the image, its working copy or a half-size copy, in that image's px). */
export interface WindowSource {
  img: RgbImage;
  win: Window;
}

/** The image and window to sample `win` of `img` from into a `side`-px input. */
export async function windowSource(img: RgbImage, win: Window, side: number): Promise<WindowSource> {
  const copy = await workingCopy(img);
  if (copy === img) return halvedSource({ img, win }, side);
  const sx = copy.width / img.width;
  const sy = copy.height / img.height;
  const size = win.size * Math.sqrt(sx * sy);
  if (size < MIN_COPY_STEP * side) return { img, win };
  return halvedSource({ img: copy, win: { cx: win.cx * sx, cy: win.cy * sy, size, angleRad: win.angleRad } }, side);
}

// The window in the half-size copies of `source.img` while it covers HALVE_FROM_STEP × the input's side.
function halvedSource(source: WindowSource, side: number): WindowSource {
  let { img, win } = source;
  for (let h = 0; h < MAX_HALVINGS && win.size >= HALVE_FROM_STEP * side; h++) ({ img, win } = halvedWindow(img, win));
  return { img, win };
}

/**
 * Feeds of a `window` model for the windows `wins` of `img` (one batch; see `windowBatchFeeds`),
 * each sampled from the photo, its working copy or a half-size copy (`windowSource`): what every
 * per-face model reads.
 */
export async function sampledWindowFeeds(img: RgbImage, spec: ModelSpec, wins: readonly Window[], out?: Float32Array): Promise<TensorMap> {
  const side = imageInput(spec).pre.size[0];
  return sourcedWindowFeeds(spec, await Promise.all(wins.map((w) => windowSource(img, w, side))), out);
}
