/**
 * A small upright greyscale patch of the face, in the face's own frame, for the pixel-level
 * measures (sharpness, glasses). Patch coordinates: 0..PATCH_PX across the face extent.
 */
import type { RgbImage } from '../../inference/image';
import type { Point3 } from './mesh-geometry';
import { imageToWindow, warpToTensor, windowSource, type Window } from '../../inference';

/** Patch side in px: enough for frames and lens edges, cheap to scan. */
export const PATCH_PX = 96;

/** Luma 0..255, row-major `PATCH_PX²`, plus the face window it was cut from. */
export interface FacePatch {
  grey: Float32Array;
  window: Window;
}

/**
 * Cuts the upright face window (side = face extent) as a luma patch; a large face is sampled
 * from a smaller copy of the image (`windowSource`). The patch keeps the window in image px.
 */
export async function facePatch(img: RgbImage, face: Window): Promise<FacePatch> {
  const source = await windowSource(img, face, PATCH_PX);
  return { grey: warpToTensor(source.img, source.win, { side: PATCH_PX, layout: 'nhwc', scale: 1, offset: 0, channels: 1 }), window: face };
}

/** A mesh point in patch px. */
export function patchPoint(p: FacePatch, mesh: readonly Point3[], i: number): [number, number] {
  const q = mesh[i];
  if (!q) throw new RangeError(`mesh has no point ${i}`);
  return imageToWindow(p.window, PATCH_PX, q[0], q[1]);
}

/** Mean luma and mean |∂/∂y| and |∂/∂x| (central differences) over a rectangle of the patch. */
export function regionStats(
  p: FacePatch,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): { mean: number; gy: number; gx: number; std: number } {
  const n = PATCH_PX;
  const xa = Math.max(1, Math.floor(Math.min(x0, x1)));
  const xb = Math.min(n - 2, Math.ceil(Math.max(x0, x1)));
  const ya = Math.max(1, Math.floor(Math.min(y0, y1)));
  const yb = Math.min(n - 2, Math.ceil(Math.max(y0, y1)));
  let sum = 0;
  let sq = 0;
  let gy = 0;
  let gx = 0;
  let count = 0;
  for (let y = ya; y <= yb; y++) {
    for (let x = xa; x <= xb; x++) {
      const v = p.grey[y * n + x]!;
      sum += v;
      sq += v * v;
      gy += Math.abs(p.grey[(y + 1) * n + x]! - p.grey[(y - 1) * n + x]!) / 2;
      gx += Math.abs(p.grey[y * n + x + 1]! - p.grey[y * n + x - 1]!) / 2;
      count++;
    }
  }
  if (count === 0) return { mean: 0, gy: 0, gx: 0, std: 0 };
  const mean = sum / count;
  return { mean, gy: gy / count, gx: gx / count, std: Math.sqrt(Math.max(0, sq / count - mean * mean)) };
}

/**
 * Sharpness: standard deviation of the 4-neighbour Laplacian over the central half of the patch
 * (eyes, nose, mouth), in luma units. Blurred or upscaled faces score low.
 */
export function laplacianStd(p: FacePatch): number {
  const n = PATCH_PX;
  let sum = 0;
  let sq = 0;
  let count = 0;
  for (let y = n / 4; y < (3 * n) / 4; y++) {
    for (let x = n / 4; x < (3 * n) / 4; x++) {
      const g = p.grey;
      const l = 4 * g[y * n + x]! - g[(y - 1) * n + x]! - g[(y + 1) * n + x]! - g[y * n + x - 1]! - g[y * n + x + 1]!;
      sum += l;
      sq += l * l;
      count++;
    }
  }
  const mean = sum / count;
  return Math.sqrt(Math.max(0, sq / count - mean * mean));
}
