import type { RgbPixels } from '../pixels/types';
import { resizeBilinearToTensor, type Tensor } from '../tensor/resize';
import { COCO80 } from './coco';
import { nms } from './nms';
import type { DetectedObject } from './types';

/** Manifest id of the CenterNet (MobileNetV3) COCO detector. */
export const CENTERNET_MODEL_ID = 'centernet';
const INPUT = 512;
const GRID = 128; // heatmap cells per side, stride 4
const STRIDE = INPUT / GRID;

/**
 * Whole image, bilinear (TF.js, no align-corners) to 512×512, NHWC RGB 0..255 unscaled. Pure
 * reference version; the pipeline uses `centernetInput` (libvips, ≈ 4× cheaper).
 */
export function centernetPreprocess(img: RgbPixels): Record<string, Tensor> {
  return { input: resizeBilinearToTensor(img, INPUT, INPUT, { alignCorners: false, layout: 'NHWC', scale: 1, offset: 0 }) };
}

/**
 * The detector input from an image already resized to 512×512 (libvips linear, area-averaging
 * when shrinking, which also avoids the aliasing of TF.js's point-sampled bilinear): NHWC float
 * RGB 0..255.
 */
export function centernetFeeds(resized: RgbPixels): Record<string, Tensor> {
  if (resized.width !== INPUT || resized.height !== INPUT) throw new Error(`centernet input must be ${INPUT}×${INPUT}`);
  return { input: { data: Float32Array.from(resized.data), dims: [1, INPUT, INPUT, 3] } };
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
 * to the box edges. Boxes are scaled back to
 * the source image (the 512×512 input stretched it), then per-class NMS.
 */
export function centernetDecode(outputs: Record<string, Tensor>, srcW: number, srcH: number, o: DecodeOptions): DetectedObject[] {
  const heat = outputs['heatmap']?.data;
  const off = outputs['box_offsets']?.data;
  if (!heat || !off) throw new Error('centernet returned no heatmap/box_offsets');
  const K = COCO80.length;
  const dets: DetectedObject[] = [];
  const fx = srcW / INPUT;
  const fy = srcH / INPUT;
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
