import { letterboxFit, type TensorMap } from '../../inference';
import { COCO80 } from './coco';
import { nms } from './nms';
import type { DetectedObject } from './types';

/** Manifest id of the CenterNet (MobileNetV3) COCO detector. */
export const CENTERNET_MODEL_ID = 'centernet';
/**
 * Input px per heatmap cell (the network's output stride). The input size itself is the
 * manifest's (`preprocess.size`, 512, trimmed to the image in steps of `preprocess.trim`): the
 * decoder reads the grid from the heatmap's dims.
 *
 * The manifest letterboxes the input: the image is scaled to fit (aspect kept) and placed at the
 * top-left corner with zero padding elsewhere, as the TF Object Detection API's keep-aspect-ratio
 * resizer feeds these models. Stretching the whole image to 512×512 instead distorts shapes: on
 * the fixtures the cat then reads as a dog (0.50 vs cat 0.22; 0.51 cat letterboxed), text and a
 * night scene grow spurious clocks, cakes and birds, and people score lower (docs/analysis.md
 * "Objects").
 */
const STRIDE = 4;

/** Decoding options; `minScore` is the per-peak heatmap score (0..1). */
export interface DecodeOptions {
  minScore: number;
  iouMax: number;
  maxCount: number;
}

/**
 * Decodes CenterNet outputs: `heatmap` NHWC [1,gridH,gridW,80] sigmoid scores (128×128 for the
 * whole 512 px frame, fewer cells when the frame was trimmed to the image: `preprocess.trim`),
 * peaks = cells that are the maximum of their 3×3 neighbourhood for that class; `box_offsets` NHWC
 * [1,gridH,gridW,4] = (left, top, right, bottom) distances in input pixels from the point
 * (4·col, 4·row) to the box edges. Boxes are scaled back to the `srcW`×`srcH` source image, which
 * was letterboxed into the `frame` [w, h] (`letterboxFit`; default: the grid's own size), and
 * clipped to it; then per-class NMS.
 */
export function centernetDecode(
  outputs: TensorMap,
  srcW: number,
  srcH: number,
  o: DecodeOptions,
  frame?: readonly [number, number],
): DetectedObject[] {
  const heat = outputs['heatmap']?.data;
  const off = outputs['box_offsets']?.data;
  if (!heat || !off) throw new Error('centernet returned no heatmap/box_offsets');
  const K = COCO80.length;
  const gridH = outputs['heatmap']!.dims[1]!;
  const gridW = outputs['heatmap']!.dims[2]!;
  const dets: DetectedObject[] = [];
  const fx = 1 / letterboxFit(srcW, srcH, frame ?? [gridW * STRIDE, gridH * STRIDE]).scale;
  const fy = fx;
  // Almost every score is below minScore: one tight pass finds the few above, in (y, x, k) order.
  for (const i of indicesAtLeast(heat, gridH * gridW * K, o.minScore)) {
    const s = heat[i]!;
    const cell = (i / K) | 0;
    const k = i - cell * K;
    const y = (cell / gridW) | 0;
    const x = cell - y * gridW;
    if (!isPeak(heat, gridW, gridH, x, y, k, s)) continue;
    const [l, t, r, b] = [off[cell * 4]!, off[cell * 4 + 1]!, off[cell * 4 + 2]!, off[cell * 4 + 3]!];
    const x1 = (x * STRIDE - l) * fx;
    const y1 = (y * STRIDE - t) * fy;
    const x2 = (x * STRIDE + r) * fx;
    const y2 = (y * STRIDE + b) * fy;
    const left = Math.max(0, x1);
    const top = Math.max(0, y1);
    dets.push({ label: COCO80[k]!, score: s, box: { left, top, width: Math.min(srcW, x2) - left, height: Math.min(srcH, y2) - top } });
  }
  return nms(
    dets.filter((d) => d.box.width > 1 && d.box.height > 1),
    o.iouMax,
    o.maxCount,
  );
}

/** Indices of the first `n` values that are ≥ `min`, ascending. */
function indicesAtLeast(values: Float32Array, n: number, min: number): number[] {
  const found: number[] = [];
  for (let i = 0; i < n; i++) if (values[i]! >= min) found.push(i);
  return found;
}

function isPeak(heat: Float32Array, gridW: number, gridH: number, x: number, y: number, k: number, s: number): boolean {
  const K = COCO80.length;
  for (let dy = -1; dy <= 1; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= gridH) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      if ((dx === 0 && dy === 0) || xx < 0 || xx >= gridW) continue;
      if (heat[(yy * gridW + xx) * K + k]! > s) return false;
    }
  }
  return true;
}
