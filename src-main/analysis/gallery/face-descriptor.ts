/**
 * Face descriptors for the person gallery. Enrolment and matching both start from a face box
 * (the detect operation's square mesh box) and go through the same steps, so stored and query
 * vectors are made identically:
 *
 * box → facemesh twice (MediaPipe landmarks-to-ROI) → upright window `crop.scale` × the mesh
 * extent → the recipe's model (FACE_DESCRIPTOR: dlib's ResNet, 150 px NHWC, RGB 0..255) →
 * `descriptor` [1,128] → L2-normalised.
 */
import { l2Normalize, outputData, sampledWindowFeeds, type Box, type ModelRunner, type RgbImage, type Window } from '../../inference';
// The faces module's mesh refinement and warp are not in its public index; reusing them keeps one
// alignment for detection and galleries instead of a copy here. The recipe depends on them: a
// change there that moves descriptors must bump the recipe's method in descriptor-spec.ts (the
// golden-descriptor test in test/main/analysis/gallery fails when it does).
import { eyeLineAngle, keyPoints, meshCandidate, windowFromMesh } from '../faces';
import { FACE_DESCRIPTOR, type FaceDescriptorSpec } from './descriptor-spec';

/** An axis-aligned face box in image px. */
export type FaceBox = Box;

/** A descriptor and the upright crop window it was computed from (for the thumbnail). */
export interface FaceDescriptor {
  vector: Float32Array;
  window: Window;
}

/**
 * The L2-normalised descriptor of the face in `box` by recipe `spec` (default the shipped one), or
 * null when facemesh finds no face there (the box came from elsewhere and holds no face).
 */
export async function describeFace(
  img: RgbImage,
  box: FaceBox,
  runner: ModelRunner,
  signal?: AbortSignal,
  spec: FaceDescriptorSpec = FACE_DESCRIPTOR,
): Promise<FaceDescriptor | null> {
  const side = Math.max(box.width, box.height);
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  // A level pseudo eye line (angle 0) for the first mesh pass; the second pass levels the real one.
  const candidate = { score: 1, cx, cy, size: side, keypoints: [cx - 1, cy, cx + 1, cy, cx, cy, cx, cy, cx, cy, cx, cy] };
  const meshed = await meshCandidate(img, candidate, runner, signal);
  if (!meshed) return null;
  // Upright window from the second (refined) mesh.
  const eyes = keyPoints(meshed.mesh);
  const window = windowFromMesh(meshed.mesh, eyeLineAngle(eyes.rightEye, eyes.leftEye), spec.crop.scale);
  const out = outputData(await runner.run(spec.modelId, await sampledWindowFeeds(img, runner.spec(spec.modelId), [window]), signal));
  const raw = out[spec.output];
  if (!raw || raw.length !== spec.dim) throw new Error(`${spec.modelId}: expected a ${spec.dim}-d ${spec.output} output`);
  return { vector: l2Normalize(raw), window };
}
