import { nms as nmsIndices, type Box } from '../../inference';
import type { DetectedObject } from './types';

/** An object box `{x, y, w, h}` as the one internal box type (same numbers, other names). */
export const objectBox = (b: DetectedObject['box']): Box => ({ left: b.x, top: b.y, width: b.w, height: b.h });

/**
 * Greedy per-class non-maximum suppression over detected objects (inference's `nms` with one
 * class per label): keeps the best box and drops same-label boxes with IoU > iouMax.
 */
export function nms(dets: readonly DetectedObject[], iouMax: number, maxCount: number): DetectedObject[] {
  const keep = nmsIndices(
    dets.map((d) => objectBox(d.box)),
    dets.map((d) => d.score),
    { iouThreshold: iouMax, maxCount, classes: dets.map((d) => d.label) },
  );
  return keep.map((i) => dets[i]!);
}
