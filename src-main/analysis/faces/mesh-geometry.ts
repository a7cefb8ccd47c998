/**
 * Geometry read off the 468-point face mesh (MediaPipe canonical indices), all in image px:
 * eye centres, chin tip, mouth opening and head pose.
 *
 * Mesh points are `[x, y, z]` with x right, y down (image px) and z depth in the same scale,
 * smaller = closer to the camera. "Left"/"right" are the subject's own sides: the subject's left
 * eye is on the viewer's right in an unmirrored photo.
 */

/** One mesh point: x, y in image px; z relative depth, same scale. */
export type Point3 = [number, number, number];

/** Subject's right eye contour (viewer's left): corners 33 (outer) and 133 (inner) plus lids. */
export const RIGHT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173] as const;
/** Subject's left eye contour (viewer's right): corners 263 (outer) and 362 (inner) plus lids. */
export const LEFT_EYE = [263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398] as const;
/** Lowest point of the chin. */
export const CHIN_TIP = 152;
/** Top of the forehead on the midline. */
export const FOREHEAD_TOP = 10;
/** Cheek contour points at the ears' level: subject's right (234) and left (454). */
export const RIGHT_CHEEK = 234;
export const LEFT_CHEEK = 454;
/** Inner lip midpoints (upper 13, lower 14) and inner mouth corners (78, 308). */
export const UPPER_LIP_INNER = 13;
export const LOWER_LIP_INNER = 14;

const at = (mesh: readonly Point3[], i: number): Point3 => {
  const p = mesh[i];
  if (!p) throw new RangeError(`mesh has no point ${i}`);
  return p;
};

/** Mean of the given points, image px. */
export function centroid(mesh: readonly Point3[], idx: readonly number[]): [number, number] {
  let x = 0;
  let y = 0;
  for (const i of idx) {
    const p = at(mesh, i);
    x += p[0];
    y += p[1];
  }
  return [x / idx.length, y / idx.length];
}

/** Eye centres (mean of each eye's contour) and chin tip, image px. */
export function keyPoints(mesh: readonly Point3[]): { rightEye: [number, number]; leftEye: [number, number]; chin: [number, number] } {
  const chin = at(mesh, CHIN_TIP);
  return { rightEye: centroid(mesh, RIGHT_EYE), leftEye: centroid(mesh, LEFT_EYE), chin: [chin[0], chin[1]] };
}

/**
 * Mouth opening: gap between the inner lip midpoints divided by the face height (forehead top
 * to chin), a scale- and resolution-free ratio. Closed lips measure < 0.01.
 */
export function mouthOpening(mesh: readonly Point3[]): number {
  const up = at(mesh, UPPER_LIP_INNER);
  const lo = at(mesh, LOWER_LIP_INNER);
  const faceH = dist(at(mesh, FOREHEAD_TOP), at(mesh, CHIN_TIP));
  return faceH > 0 ? dist(up, lo) / faceH : 0;
}

/**
 * Head pose in degrees from the mesh's 3-D frame (x: right→left cheek, y: forehead→chin,
 * z = x × y, re-orthogonalised). Conventions (image seen by the viewer):
 * - yaw > 0: the face turns towards the viewer's right (the subject's left);
 * - pitch > 0: the face tilts up (chin forward/up);
 * - roll > 0: the head tilts clockwise on screen (the eye line from the subject's right eye to
 *   their left eye points down-right), i.e. atan2 of the eye line with y down.
 */
export function headPose(mesh: readonly Point3[]): { yaw: number; pitch: number; roll: number } {
  let x = norm(sub(at(mesh, LEFT_CHEEK), at(mesh, RIGHT_CHEEK)));
  const y = norm(sub(at(mesh, CHIN_TIP), at(mesh, FOREHEAD_TOP)));
  const z = norm(cross(x, y));
  x = cross(y, z);
  // Face normal towards the camera is −z (smaller z = closer). Roll is taken out first (rotate the
  // normal back about the view axis) so yaw and pitch do not mix when the head is tilted.
  const roll = Math.atan2(x[1], x[0]);
  const c = Math.cos(roll);
  const s = Math.sin(roll);
  const nx = -(c * z[0] + s * z[1]);
  const ny = -(-s * z[0] + c * z[1]);
  const nz = -z[2];
  const deg = 180 / Math.PI;
  return {
    yaw: Math.atan2(nx, -nz) * deg,
    pitch: Math.atan2(-ny, Math.hypot(nx, nz)) * deg,
    roll: roll * deg,
  };
}

const sub = (a: Point3, b: Point3): Point3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Point3, b: Point3): Point3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dist = (a: Point3, b: Point3): number => Math.hypot(a[0] - b[0], a[1] - b[1]);
function norm(v: Point3): Point3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}
