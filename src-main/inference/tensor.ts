/**
 * Pure tensor helpers for post-processing model outputs: no I/O, no ONNX Runtime.
 * Boxes are axis-aligned `{ left, top, width, height }` in any one unit (pixels or 0..1).
 */

// The logistic function lives in math.ts; re-exported for callers of the tensor helpers (build tooling).
export { sigmoid } from './math';

/** A dense float32 tensor: row-major data plus dims (batch first). The one tensor type of the app. */
export interface FloatTensor {
  readonly data: Float32Array;
  readonly dims: readonly number[];
}

/** Named tensors in or out of a model. */
export type TensorMap = Record<string, FloatTensor>;

/** The batch dim of a manifest shape whose graph takes any batch (ONNX symbolic dim 'N'). */
export const DYNAMIC_BATCH = -1;

/** A manifest shape at batch `n` (a dynamic batch becomes `n`; a static shape is returned as is). */
export function atBatch(shape: readonly number[], n: number): number[] {
  return shape[0] === DYNAMIC_BATCH ? [n, ...shape.slice(1)] : [...shape];
}

/** Whether `dims` fit a manifest shape: same rank, equal dims, any positive batch where it is dynamic. */
export function fitsShape(dims: readonly number[], shape: readonly number[]): boolean {
  return dims.length === shape.length && dims.every((d, i) => d === shape[i] || (i === 0 && shape[0] === DYNAMIC_BATCH && d > 0));
}

/** Item `i` of a batch tensor whose items are `n` long: a view, no copy. */
export function batchItem(data: Float32Array, n: number, i: number): Float32Array {
  return data.subarray(i * n, (i + 1) * n);
}

/** An axis-aligned box; the one internal box type (wire shapes are converted at the edge); `width`/`height` are >= 0 for valid boxes. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A scored element of a vector. */
export interface Scored {
  index: number;
  score: number;
}

/** Softmax of a vector (max-subtracted for stability). Empty in, empty out. */
export function softmax(logits: ArrayLike<number>): Float32Array {
  const out = new Float32Array(logits.length);
  if (logits.length === 0) return out;
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]!);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    const e = Math.exp(logits[i]! - max);
    out[i] = e;
    sum += e;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / sum;
  return out;
}

/** The `k` largest values, highest first; ties keep the lower index first (stable). */
export function topK(values: ArrayLike<number>, k: number): Scored[] {
  const all: Scored[] = [];
  for (let i = 0; i < values.length; i++) all.push({ index: i, score: values[i]! });
  all.sort((a, b) => b.score - a.score || a.index - b.index);
  return all.slice(0, Math.max(0, k));
}

/** v / ||v||2; a zero vector stays zero. */
export function l2Normalize(v: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(v.length);
  if (norm === 0) return out;
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

/** Area (px²) the two boxes share; 0 when they do not overlap. */
export function intersectionArea(a: Box, b: Box): number {
  const x1 = Math.max(a.left, b.left);
  const y1 = Math.max(a.top, b.top);
  const x2 = Math.min(a.left + a.width, b.left + b.width);
  const y2 = Math.min(a.top + a.height, b.top + b.height);
  return Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
}

/** Intersection over the smaller box's area, 0..1 (1: one box inside the other; 0 when either box is empty). */
export function overlapOfSmaller(a: Box, b: Box): number {
  const smaller = Math.min(a.width * a.height, b.width * b.height);
  return smaller > 0 ? intersectionArea(a, b) / smaller : 0;
}

/** Intersection over union, 0..1 (0 when either box is empty). */
export function iou(a: Box, b: Box): number {
  const inter = intersectionArea(a, b);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** Options for `nms`. */
export interface NmsOptions {
  /** Suppress a box whose IoU with a kept box exceeds this (0..1). */
  iouThreshold: number;
  /** Ignore boxes scoring below this; default -Infinity. */
  minScore?: number;
  /** Keep at most this many; default all. */
  maxCount?: number;
  /** One class per box: a box only suppresses boxes of its own class (per-class NMS); default one class. */
  classes?: ArrayLike<string | number>;
}

/**
 * Greedy non-maximum suppression. Returns indices into `boxes`, highest score first; equal scores
 * keep the lower index first, so the result does not depend on sort stability.
 */
export function nms(boxes: readonly Box[], scores: ArrayLike<number>, o: NmsOptions): number[] {
  const minScore = o.minScore ?? -Infinity;
  const maxCount = o.maxCount ?? Infinity;
  const order: number[] = [];
  for (let i = 0; i < boxes.length; i++) if (scores[i]! >= minScore) order.push(i);
  order.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const kept: number[] = [];
  for (const i of order) {
    if (kept.length >= maxCount) break;
    const cls = o.classes;
    if (kept.every((j) => (cls !== undefined && cls[i] !== cls[j]) || iou(boxes[i]!, boxes[j]!) <= o.iouThreshold)) kept.push(i);
  }
  return kept;
}
