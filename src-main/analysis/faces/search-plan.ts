/**
 * The multi-scale tile search that makes `minHeadScale` real. BlazeFace squashes its window to
 * 256 px, so a whole-image pass only finds faces ≥ ~1/16 of the longer side. We cover the image
 * with a pyramid of square windows: each level is responsible for faces between 1/16 and 1/4 of
 * its window side (16..64 detector px, where the detector is most reliable), levels grow by 4×,
 * and adjacent windows overlap by a third so a face of the level's largest size always lies
 * wholly inside one window. The top level is one window over the whole image and also takes
 * faces up to the full image size.
 */
import type { Window } from '../../inference';

/** Detector input side, px. */
export const DETECTOR_INPUT_PX = 256;
/**
 * Smallest face (box side) the plan aims at, in detector px: measured recall is ≥ 0.9 score at
 * 14–16 px on portraits downscaled into a window and collapses below ~8 px.
 */
export const MIN_FACE_DETECTOR_PX = 16;
/**
 * Absolute floor on the searched face size in original-image px: windows are never upsampled
 * (window side ≥ detector input), so the smallest findable face is 16 image px, and below that
 * landmarks and attributes are meaningless anyway.
 */
export const MIN_FACE_IMAGE_PX = MIN_FACE_DETECTOR_PX;
/** Tolerance on the finest level's window side before another level is added. */
export const LEVEL_SLACK = 1.25;
/** Ratio between pyramid levels' window sides. */
export const LEVEL_RATIO = 4;

/** One pyramid level: its windows and the face sizes (image px) it is trusted for. */
export interface SearchLevel {
  windowPx: number;
  windows: Window[];
  /** Detections larger than this (image px) are dropped at this level: a bigger face is cut by tile edges and is found whole one level up. */
  maxFacePx: number;
}

/** The searched face size in image px for `minHeadScale` (fraction of the shorter side), floored at `MIN_FACE_IMAGE_PX`. */
export function minFacePx(width: number, height: number, minHeadScale: number): number {
  return Math.max(MIN_FACE_IMAGE_PX, minHeadScale * Math.min(width, height));
}

/**
 * Plans the windows for an image of `width × height` px searching faces down to `minFacePx`
 * image px, rotated by `angleRad` (0 for the upright search; ROLL adds rotated passes). Levels
 * are returned coarse to fine.
 */
export function planSearch(width: number, height: number, minFace: number, angleRad = 0): SearchLevel[] {
  const longer = Math.max(width, height);
  const levels: SearchLevel[] = [];
  // Whole-image window (letterboxed square): faces from longer/16 up to the whole frame.
  levels.push({ windowPx: longer, windows: [{ cx: width / 2, cy: height / 2, size: longer, angleRad }], maxFacePx: Infinity });
  let side = longer;
  const smallestSide = Math.max(DETECTOR_INPUT_PX, (minFace * DETECTOR_INPUT_PX) / MIN_FACE_DETECTOR_PX);
  // A finer level only when the current one misses the target by > 25 %: faces 12.8 detector px
  // high are still found reliably (see MIN_FACE_DETECTOR_PX), and a level costs many windows.
  while (side > smallestSide * LEVEL_SLACK) {
    side = Math.max(smallestSide, side / LEVEL_RATIO);
    levels.push({ windowPx: side, windows: tileWindows(width, height, side, angleRad), maxFacePx: side / 3 });
  }
  return levels;
}

/**
 * Square windows of `side` px covering `width × height` with at least side/3 overlap. Rotated
 * windows (ROLL passes) use the same centres: the grid is dense enough that the rotated squares
 * still cover every face of the level.
 */
export function tileWindows(width: number, height: number, side: number, angleRad = 0): Window[] {
  const xs = positions(width, side);
  const ys = positions(height, side);
  const out: Window[] = [];
  for (const cy of ys) for (const cx of xs) out.push({ cx, cy, size: side, angleRad });
  return out;
}

// Window centres along one axis: evenly spread, stride ≤ 2/3 side, first/last window flush with
// the edges (a window larger than the axis is centred).
function positions(length: number, side: number): number[] {
  if (side >= length) return [length / 2];
  const n = Math.ceil((length - side) / ((2 * side) / 3)) + 1;
  const stride = (length - side) / (n - 1);
  return Array.from({ length: n }, (_, i) => side / 2 + i * stride);
}

/** Total number of detector runs of a plan (for benchmarks and budgets). */
export function countWindows(levels: readonly SearchLevel[]): number {
  return levels.reduce((n, l) => n + l.windows.length, 0);
}
