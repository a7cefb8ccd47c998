/**
 * Face descriptors for the person gallery. Enrolment and matching both start from a face box
 * (the detect operation's square mesh box) and go through the same steps, so stored and query
 * vectors are made identically:
 *
 * box → facemesh twice (MediaPipe landmarks-to-ROI) → upright window 1.5 × the mesh extent →
 * faceres (224 px NHWC, RGB 0..255) → `descriptor` [1,1024] → L2-normalised.
 */
import { l2Normalize, type Box, type ModelRunner, type RgbImage, type Window } from '../../inference';
// The faces module's mesh refinement and warp are not in its public index; reusing them keeps one
// alignment for detection and galleries instead of a copy here. The recipe depends on them: a
// change there that moves descriptors must bump FACE_DESCRIPTOR.method (the golden-descriptor
// test in test/main/analysis/gallery fails when it does).
import { eyeLineAngle, keyPoints, meshCandidate, runOnWindow, windowFromMesh } from '../faces';
import { FACE_DESCRIPTOR } from './descriptor-spec';

/** An axis-aligned face box in image px. */
export type FaceBox = Box;

/**
 * Crop side relative to the mesh extent. faceres was trained on loose crops; 1.3–1.7 measured
 * alike (docs/galleries.md). Owned here, not shared with the attribute run, so that tuning
 * attributes can never silently move stored gallery vectors.
 */
export const FACE_CROP_SCALE = 1.5;

/** A descriptor and the upright crop window it was computed from (for the thumbnail). */
export interface FaceDescriptor {
  vector: Float32Array;
  window: Window;
}

/**
 * The L2-normalised faceres descriptor of the face in `box`, or null when facemesh finds no face
 * there (the box came from elsewhere and holds no face).
 */
export async function describeFace(img: RgbImage, box: FaceBox, runner: ModelRunner, signal?: AbortSignal): Promise<FaceDescriptor | null> {
  const side = Math.max(box.width, box.height);
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  // A level pseudo eye line (angle 0) for the first mesh pass; the second pass levels the real one.
  const candidate = { score: 1, cx, cy, size: side, keypoints: [cx - 1, cy, cx + 1, cy, cx, cy, cx, cy, cx, cy, cx, cy] };
  const meshed = await meshCandidate(img, candidate, runner, signal);
  if (!meshed) return null;
  // Upright window from the second (refined) mesh.
  const eyes = keyPoints(meshed.mesh);
  const window = windowFromMesh(meshed.mesh, eyeLineAngle(eyes.rightEye, eyes.leftEye), FACE_CROP_SCALE);
  const out = await runOnWindow(runner, 'faceres', img, window, signal);
  const raw = out[FACE_DESCRIPTOR.output];
  if (!raw || raw.length !== FACE_DESCRIPTOR.dim)
    throw new Error(`faceres: expected a ${FACE_DESCRIPTOR.dim}-d ${FACE_DESCRIPTOR.output} output`);
  return { vector: l2Normalize(raw), window };
}
