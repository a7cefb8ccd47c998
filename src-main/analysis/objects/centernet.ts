import type { RgbPixels } from '../pixels/types';
import type { Tensor } from '../tensor/resize';
import { COCO80 } from './coco';
import { nms } from './nms';
import type { DetectedObject } from './types';

/** Manifest id of the CenterNet (MobileNetV3) COCO detector. */
export const CENTERNET_MODEL_ID = 'centernet';
const INPUT = 512;
const GRID = 128; // heatmap cells per side, stride 4
const STRIDE = INPUT / GRID;

/**
 * Where the source image sits in the square detector input. The image is scaled to fit (aspect
 * kept) and placed at the top-left corner; the rest is zero padding, as the TF Object Detection
 * API's keep-aspect-ratio resizer feeds these models. Stretching the whole image to 512×512
 * instead distorts shapes: on the fixtures the cat then reads as a dog (0.50 vs cat 0.22; 0.51
 * cat letterboxed), text and a night scene grow spurious clocks, cakes and birds, and people
 * score lower (docs/analysis.md "Objects").
 */
export interface Letterbox {
  /** Input px per source px (same on both axes). */
  scale: number;
  /** Size of the scaled image inside the input, px (≤ 512 each). */
  width: number;
  height: number;
}

/** The letterbox of a `srcW`×`srcH` image in the detector input. */
export function centernetLetterbox(srcW: number, srcH: number): Letterbox {
  const scale = INPUT / Math.max(srcW, srcH);
  return {
    scale,
    width: Math.min(INPUT, Math.max(1, Math.round(srcW * scale))),
    height: Math.min(INPUT, Math.max(1, Math.round(srcH * scale))),
  };
}

/**
 * The detector input from the image already resized to its letterbox size (libvips linear,
 * area-averaging when shrinking, which also avoids the aliasing of point-sampled bilinear):
 * NHWC float RGB 0..255 in a 512×512 frame, zero outside the image.
 */
export function centernetFeeds(resized: RgbPixels): Record<string, Tensor> {
  if (resized.width > INPUT || resized.height > INPUT) throw new Error(`centernet input must fit in ${INPUT}×${INPUT}`);
  const data = new Float32Array(INPUT * INPUT * 3);
  const row = resized.width * 3;
  for (let y = 0; y < resized.height; y++) {
    const src = resized.data.subarray(y * row, (y + 1) * row);
    data.set(src, y * INPUT * 3); // Float32Array.set converts the bytes
  }
  return { input: { data, dims: [1, INPUT, INPUT, 3] } };
}

/** Side of the square detector input, px. */
export const CENTERNET_INPUT_PX = INPUT;

/** Decoding options; `minScore` is the per-peak heatmap score (0..1). */
export interface DecodeOptions {
  minScore: number;
  iouMax: number;
  maxCount: number;
}

/**
 * Decodes CenterNet outputs: `heatmap` NHWC [1,128,128,80] sigmoid scores, peaks = cells that are
 * the maximum of their 3×3 neighbourhood for that class; `box_offsets` NHWC [1,128,128,4] =
 * (left, top, right, bottom) distances in input pixels (512 scale) from the point (4·col, 4·row)
 * to the box edges. Boxes are scaled back to the `srcW`×`srcH` source image, which was
 * letterboxed into the input (`centernetLetterbox`), and clipped to it; then per-class NMS.
 */
export function centernetDecode(outputs: Record<string, Tensor>, srcW: number, srcH: number, o: DecodeOptions): DetectedObject[] {
  const heat = outputs['heatmap']?.data;
  const off = outputs['box_offsets']?.data;
  if (!heat || !off) throw new Error('centernet returned no heatmap/box_offsets');
  const K = COCO80.length;
  const dets: DetectedObject[] = [];
  const fx = 1 / centernetLetterbox(srcW, srcH).scale;
  const fy = fx;
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const cell = y * GRID + x;
      for (let k = 0; k < K; k++) {
        const s = heat[cell * K + k]!;
        if (s < o.minScore || !isPeak(heat, x, y, k, s)) continue;
        const [l, t, r, b] = [off[cell * 4]!, off[cell * 4 + 1]!, off[cell * 4 + 2]!, off[cell * 4 + 3]!];
        const x1 = (x * STRIDE - l) * fx;
        const y1 = (y * STRIDE - t) * fy;
        const x2 = (x * STRIDE + r) * fx;
        const y2 = (y * STRIDE + b) * fy;
        const bx = Math.max(0, x1);
        const by = Math.max(0, y1);
        dets.push({ label: COCO80[k]!, score: s, box: { x: bx, y: by, w: Math.min(srcW, x2) - bx, h: Math.min(srcH, y2) - by } });
      }
    }
  }
  return nms(
    dets.filter((d) => d.box.w > 1 && d.box.h > 1),
    o.iouMax,
    o.maxCount,
  );
}

function isPeak(heat: Float32Array, x: number, y: number, k: number, s: number): boolean {
  const K = COCO80.length;
  for (let dy = -1; dy <= 1; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= GRID) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      if ((dx === 0 && dy === 0) || xx < 0 || xx >= GRID) continue;
      if (heat[(yy * GRID + xx) * K + k]! > s) return false;
    }
  }
  return true;
}
