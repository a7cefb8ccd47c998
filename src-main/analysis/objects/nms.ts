import type { DetectedObject } from './types';

/** Intersection over union of two boxes (x, y, w, h). */
export function iou(a: DetectedObject['box'], b: DetectedObject['box']): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.w, b.x + b.w);
  const y2 = Math.min(a.y + a.h, b.y + b.h);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.w * a.h + b.w * b.h - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy per-class non-maximum suppression: keeps the best box and drops same-label boxes with IoU > iouMax. */
export function nms(dets: readonly DetectedObject[], iouMax: number, maxCount: number): DetectedObject[] {
  const sorted = [...dets].sort((p, q) => q.score - p.score);
  const kept: DetectedObject[] = [];
  for (const d of sorted) {
    if (kept.length >= maxCount) break;
    if (kept.some((k) => k.label === d.label && iou(k.box, d.box) > iouMax)) continue;
    kept.push(d);
  }
  return kept;
}
