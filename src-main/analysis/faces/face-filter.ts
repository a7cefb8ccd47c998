/**
 * Which meshed candidates become faces: the face-flag gate (stricter for tiny faces, relaxed by
 * PARTIAL), the selector's yaw range, and de-duplication, strongest first.
 */
import type { Box } from '../../inference';
import type { MeshedFace } from './landmarks';
import { headPose, keyPoints, type Point3 } from './mesh-geometry';
import type { SelectorPlan } from './selector';

/** Facemesh face-flag threshold (probability). */
export const FACE_FLAG_MIN = { normal: 0.8 } as const;
/** With PARTIAL, a detector score from which the face flag is not required (if the eyes are plausible). */
export const PARTIAL_MIN_DETECTOR_SCORE = 0.6;
/**
 * Below this face side (image px) the mesh crop is upsampled ≥ 4× and the face flag is less
 * discriminative (measured: patches straddling two 20 px faces of a group photo score 0.86–0.99),
 * so the flag must reach `SMALL_FACE_FLAG_MIN` (real faces of that size score ≥ 0.99).
 */
export const SMALL_FACE_PX = 32;
export const SMALL_FACE_FLAG_MIN = 0.9;

/**
 * The faces among `meshed` (null = rejected by facemesh): ranked by detector score + face flag,
 * accepted by the face-flag rules, within the selector's yaw range, and not a duplicate of a
 * stronger face.
 */
export function selectFaces(meshed: ReadonlyArray<MeshedFace | null>, selector: SelectorPlan): MeshedFace[] {
  const accept = (m: MeshedFace): boolean =>
    m.faceScore >= minFlagFor(m, FACE_FLAG_MIN.normal) ||
    // PARTIAL: facemesh scores half-occluded faces like clutter (0.00–0.22 measured), so a
    // confident detection with face-like eye geometry is enough; the mesh still supplies the rest.
    (selector.partial && m.candidate.score >= PARTIAL_MIN_DETECTOR_SCORE && plausibleEyes(m));
  // Strongest first by the reported confidence (detector and face flag), so a face confirmed by
  // facemesh claims its area before weaker detections inside it (e.g. one eye of it, found at a finer level).
  const ranked = meshed
    .filter((m): m is MeshedFace => m !== null)
    .sort((a, b) => b.candidate.score + b.faceScore - (a.candidate.score + a.faceScore));
  // Each face's box and eye centres once (the pairwise checks below are O(faces²); recomputing
  // them from the 468 points per pair cost ≈ 2 ms CPU on a 24-face photo, 0.4 ms this way).
  const kept: Array<{ m: MeshedFace; g: Geometry }> = [];
  for (const m of ranked) {
    if (!accept(m)) continue;
    if (Math.abs(headPose(m.mesh).yaw) > selector.maxAbsYawDeg) continue;
    const g = geometry(m);
    if (kept.some((k) => sameEyes(k.g, g) || centreInside(m, g, k.g)) || eyesInTwoFaces(g, kept)) continue;
    kept.push({ m, g });
  }
  return kept.map((k) => k.m);
}

/** What the de-duplication compares: the mesh box and eye centres, image px. */
interface Geometry {
  box: Box;
  rightEye: [number, number];
  leftEye: [number, number];
}

function geometry(m: MeshedFace): Geometry {
  const { rightEye, leftEye } = keyPoints(m.mesh);
  return { box: meshBox(m.mesh), rightEye, leftEye };
}

/**
 * Square box centred on the mesh's axis-aligned extent, side = the larger extent, image px (Kairos
 * boxes are square; the mesh spans forehead top to chin and cheek to cheek).
 */
export function meshBox(mesh: readonly Point3[]): Box {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of mesh) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  const side = Math.max(x1 - x0, y1 - y0);
  return { left: (x0 + x1 - side) / 2, top: (y0 + y1 - side) / 2, width: side, height: side };
}

// Two candidates that refine to the same face (e.g. found at two levels or by two ROLL passes):
// eye centres within a third of the inter-ocular distance.
function sameEyes(ka: Geometry, kb: Geometry): boolean {
  const ied = Math.hypot(ka.leftEye[0] - ka.rightEye[0], ka.leftEye[1] - ka.rightEye[1]);
  const d =
    Math.hypot(ka.leftEye[0] - kb.leftEye[0], ka.leftEye[1] - kb.leftEye[1]) +
    Math.hypot(ka.rightEye[0] - kb.rightEye[0], ka.rightEye[1] - kb.rightEye[1]);
  return d < ied / 3;
}

/**
 * Eye geometry of an upright, visible face: BlazeFace's eye keypoints 0.4–0.6 box sides apart
 * (real faces 0.42–0.51 measured, clutter 0.14–0.39) and each within 0.2 inter-ocular distances
 * of facemesh's eye centre (the two models agree on a real eye region even when the mouth is hidden).
 */
function plausibleEyes(m: MeshedFace): boolean {
  const k = m.candidate.keypoints;
  const kied = Math.hypot(k[0]! - k[2]!, k[1]! - k[3]!);
  const ratio = kied / m.candidate.size;
  if (ratio < 0.4 || ratio > 0.6) return false;
  const eyes = keyPoints(m.mesh);
  const ied = Math.hypot(eyes.leftEye[0] - eyes.rightEye[0], eyes.leftEye[1] - eyes.rightEye[1]) || 1;
  const errR = Math.hypot(k[0]! - eyes.rightEye[0], k[1]! - eyes.rightEye[1]) / ied;
  const errL = Math.hypot(k[2]! - eyes.leftEye[0], k[3]! - eyes.leftEye[1]) / ied;
  return Math.max(errR, errL) <= 0.2;
}

function minFlagFor(m: MeshedFace, base: number): number {
  return meshBox(m.mesh).width < SMALL_FACE_PX ? Math.max(base, SMALL_FACE_FLAG_MIN) : base;
}

// A weaker face whose one eye lies in a stronger face's box and whose other eye lies in another's
// is a patch straddling the two (a real face's two eyes are never both covered by other faces).
// Three copies of the group photo side by side gave one between a father and a daughter whose
// box centre fell in the 7 px gap between their boxes, out of `centreInside`'s reach.
function eyesInTwoFaces(g: Geometry, stronger: ReadonlyArray<{ g: Geometry }>): boolean {
  const holds = (b: Box, [x, y]: [number, number]): boolean => x > b.left && x < b.left + b.width && y > b.top && y < b.top + b.height;
  return stronger.some((a) => holds(a.g.box, g.rightEye) && stronger.some((b) => b !== a && holds(b.g.box, g.leftEye)));
}

// A weaker face whose box centre — or whose detection's centre — lies inside a stronger face's
// box is the same face or a patch straddling it and a neighbour: two real faces never sit one
// inside the other's box.
function centreInside(weak: MeshedFace, weakGeometry: Geometry, strong: Geometry): boolean {
  const a = weakGeometry.box;
  const b = strong.box;
  const inside = (x: number, y: number): boolean => x > b.left && x < b.left + b.width && y > b.top && y < b.top + b.height;
  return inside(a.left + a.width / 2, a.top + a.height / 2) || inside(weak.candidate.cx, weak.candidate.cy);
}
