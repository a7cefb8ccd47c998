/**
 * ArcFace-style face alignment: the similarity transform (rotation, uniform scale, translation)
 * that maps five facial points — eye centres, nose tip, mouth corners, read off the 468-point
 * mesh — onto the standard 112 × 112 template of the face-recognition models trained with
 * InsightFace's alignment. A similarity transform is exactly a rotated square `Window`, so the
 * one warp (`inference/warp.ts`) samples the aligned crop.
 */
import type { Window } from '../../src-main/inference';
import { centroid, LEFT_EYE, RIGHT_EYE, type Point3 } from '../../src-main/analysis/faces/mesh-geometry';

/** Side of the template, px. */
export const ARCFACE_SIDE = 112;

/**
 * The five template points in 112 px pixel-index coordinates (InsightFace `arcface_dst`), in
 * image order: viewer's-left eye (the subject's right), viewer's-right eye, nose tip,
 * viewer's-left mouth corner, viewer's-right mouth corner.
 */
export const ARCFACE_TEMPLATE: readonly (readonly [number, number])[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];

/** Mesh indices of the nose tip and of the subject's right (61) and left (291) outer mouth corners. */
const NOSE_TIP = 1;
const MOUTH_RIGHT = 61;
const MOUTH_LEFT = 291;

/** The five alignment points of a mesh in image px, in `ARCFACE_TEMPLATE` order. */
export function fivePoints(mesh: readonly Point3[]): [number, number][] {
  const pt = (i: number): [number, number] => {
    const p = mesh[i];
    if (!p) throw new RangeError(`mesh has no point ${i}`);
    return [p[0], p[1]];
  };
  return [centroid(mesh, RIGHT_EYE), centroid(mesh, LEFT_EYE), pt(NOSE_TIP), pt(MOUTH_RIGHT), pt(MOUTH_LEFT)];
}

/**
 * The least-squares similarity transform (no reflection) from the template onto `points` (image
 * px), as the window that `warpToTensor` samples at `ARCFACE_SIDE` px. Template coordinates are
 * pixel indices (centre of pixel 0 at 0), the warp's grid has pixel centres at +0.5: hence the
 * half-pixel shift.
 */
export function arcfaceWindow(points: readonly (readonly [number, number])[], side = ARCFACE_SIDE): Window {
  const k = side / ARCFACE_SIDE;
  const src = ARCFACE_TEMPLATE.map(([x, y]) => [(x + 0.5) * k, (y + 0.5) * k] as const);
  const n = src.length;
  let spx = 0;
  let spy = 0;
  let sqx = 0;
  let sqy = 0;
  for (let i = 0; i < n; i++) {
    spx += src[i]![0];
    spy += src[i]![1];
    sqx += points[i]![0];
    sqy += points[i]![1];
  }
  const [mpx, mpy, mqx, mqy] = [spx / n, spy / n, sqx / n, sqy / n];
  // q − q̄ ≈ [a −b; b a] (p − p̄): a = s·cos θ, b = s·sin θ (Umeyama, 2-D closed form).
  let num = 0;
  let cross = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const px = src[i]![0] - mpx;
    const py = src[i]![1] - mpy;
    const qx = points[i]![0] - mqx;
    const qy = points[i]![1] - mqy;
    num += px * qx + py * qy;
    cross += px * qy - py * qx;
    den += px * px + py * py;
  }
  const a = num / den;
  const b = cross / den;
  // Image position of the template centre (side/2, side/2).
  const dx = side / 2 - mpx;
  const dy = side / 2 - mpy;
  return { cx: mqx + a * dx - b * dy, cy: mqy + b * dx + a * dy, size: side * Math.hypot(a, b), angleRad: Math.atan2(b, a) };
}
