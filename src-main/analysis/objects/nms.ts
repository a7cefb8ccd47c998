import { nms as nmsIndices } from '../../inference';
import type { DetectedObject } from './types';

/**
 * Greedy per-class non-maximum suppression over detected objects (inference's `nms` with one
 * class per label): keeps the best box and drops same-label boxes with IoU > iouMax.
 */
export function nms(dets: readonly DetectedObject[], iouMax: number, maxCount: number): DetectedObject[] {
  const keep = nmsIndices(
    dets.map((d) => d.box),
    dets.map((d) => d.score),
    { iouThreshold: iouMax, maxCount, classes: dets.map((d) => d.label) },
  );
  return keep.map((i) => dets[i]!);
}
