import type { Box } from '../../inference';
import { nms } from './nms';
import type { DetectedObject } from './types';

/**
 * A wide image is searched whole and in windows along its long side (wide-windows.ts).
 * Neighbouring windows share `overlap` of their length, so a thing up to that long lies whole in
 * one of them; a window's detection reaching to within `edgeMargin` (a fraction of the window's
 * length) of a side the window cut is dropped: it is part of a thing whose whole lies in a
 * neighbour, or in the whole image when longer than the overlap. The whole image's own pass
 * sees the large things, at a third of the detector's frame for a 3:1 image.
 */
export const WIDE_DETECTION = { overlap: 1 / 3, edgeMargin: 0.01 } as const;

/** One window of a wide image and what the detector found in it (boxes in the image's pixels). */
export interface WindowDetections {
  window: Box;
  objects: readonly DetectedObject[];
}

/**
 * The whole image's detections and the windows', the windows' cut parts dropped, merged by
 * per-class NMS: the same thing seen twice keeps its best-scored box.
 */
export function mergeWindowDetections(
  whole: readonly DetectedObject[],
  windows: readonly WindowDetections[],
  width: number,
  height: number,
  o: { iouMax: number; maxCount: number },
): DetectedObject[] {
  const found = [...whole];
  for (const { window: w, objects } of windows) found.push(...objects.filter((d) => !reachesCutSide(d.box, w, width, height)));
  return nms(found, o.iouMax, o.maxCount);
}

/** Box `b` in window `w` reaches a side of the window that lies inside the width × height image (all in image px). */
function reachesCutSide(b: Box, w: Box, width: number, height: number): boolean {
  const margin = WIDE_DETECTION.edgeMargin * Math.max(w.width, w.height);
  return (
    (w.left > 0 && b.left <= w.left + margin) ||
    (w.left + w.width < width && b.left + b.width >= w.left + w.width - margin) ||
    (w.top > 0 && b.top <= w.top + margin) ||
    (w.top + w.height < height && b.top + b.height >= w.top + w.height - margin)
  );
}
