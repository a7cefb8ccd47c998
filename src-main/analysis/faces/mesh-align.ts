/**
 * Facemesh alignment: the rotated square crop fed to the 192 px mesh model and the mapping of
 * its 468 output points back to image px.
 */
import { windowToImage, type Window } from '../../inference';
import type { Point3 } from './mesh-geometry';

/** Mesh model input side, px. */
export const MESH_INPUT_PX = 192;
/** Crop side relative to the face box side (MediaPipe's ROI scale for the mesh model). */
export const MESH_CROP_SCALE = 1.5;

/**
 * Crop window for the mesh model around a face: centred on the box, side = `MESH_CROP_SCALE` ×
 * the box's larger side, rotated by the eye line (`angleRad`, from the subject's right eye to their
 * left eye, y down) so the face is upright in the crop.
 */
export function meshWindow(cx: number, cy: number, boxSide: number, angleRad: number): Window {
  return { cx, cy, size: boxSide * MESH_CROP_SCALE, angleRad };
}

/** Eye-line angle in radians (y down) from the subject's right eye to their left eye. */
export function eyeLineAngle(rightEye: readonly [number, number], leftEye: readonly [number, number]): number {
  return Math.atan2(leftEye[1] - rightEye[1], leftEye[0] - rightEye[0]);
}

/** Maps the flat mesh output (468 × [x, y, z] in crop px, 0..192) to image px; z is scaled like x and y. */
export function meshToImage(raw: Float32Array, win: Window): Point3[] {
  const k = win.size / MESH_INPUT_PX;
  const out: Point3[] = [];
  for (let i = 0; i + 2 < raw.length; i += 3) {
    const [x, y] = windowToImage(win, MESH_INPUT_PX, raw[i]!, raw[i + 1]!);
    out.push([x, y, raw[i + 2]! * k]);
  }
  return out;
}

/**
 * Refined crop from a mesh (MediaPipe's landmarks-to-ROI): the mesh's extent measured along the
 * eye line and its normal, centred on that extent, square, its side `scale` × the larger extent.
 */
export function windowFromMesh(mesh: readonly Point3[], angleRad: number, scale = MESH_CROP_SCALE): Window {
  const c = Math.cos(angleRad);
  const s = Math.sin(angleRad);
  let minU = Infinity;
  let maxU = -Infinity;
  let minV = Infinity;
  let maxV = -Infinity;
  for (const [x, y] of mesh) {
    const u = c * x + s * y;
    const v = -s * x + c * y;
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
    minV = Math.min(minV, v);
    maxV = Math.max(maxV, v);
  }
  const u0 = (minU + maxU) / 2;
  const v0 = (minV + maxV) / 2;
  return { cx: c * u0 - s * v0, cy: s * u0 + c * v0, size: Math.max(maxU - minU, maxV - minV) * scale, angleRad };
}
