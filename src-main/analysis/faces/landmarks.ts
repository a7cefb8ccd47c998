/**
 * Stage 2: facemesh refinement. Each candidate is cropped upright (rotated by its keypoint eye
 * line), meshed, re-cropped from the first mesh (MediaPipe's landmarks-to-ROI) and meshed again;
 * the face flag of the second pass gates the candidate.
 */
import type { Candidate } from './detector';
import { eyeLineAngle, MESH_INPUT_PX, meshToImage, meshWindow, windowFromMesh } from './mesh-align';
import { keyPoints, type Point3 } from './mesh-geometry';
import type { FaceModelRunner } from './runner';
import { warpToTensor, type Window } from './warp';

/** A meshed face: 468 points in image px, the crop used and facemesh's face-presence score. */
export interface MeshedFace {
  candidate: Candidate;
  mesh: Point3[];
  window: Window;
  /** Facemesh face flag, probability 0..1 (the graph ends in a sigmoid). */
  faceScore: number;
}

/** Facemesh face-flag threshold: below it the candidate is not a face (cat faces, textures). */
export const MESH_MIN_SCORE = 0.5;

/** Meshes one candidate; returns null when facemesh says it is not a face. */
export async function meshCandidate(
  img: Parameters<typeof warpToTensor>[0],
  c: Candidate,
  runner: FaceModelRunner,
  signal?: AbortSignal,
): Promise<MeshedFace | null> {
  const kp = c.keypoints;
  const angle = eyeLineAngle([kp[0]!, kp[1]!], [kp[2]!, kp[3]!]);
  const first = await runMesh(img, meshWindow(c.cx, c.cy, c.size, angle), runner, signal);
  const eyes = keyPoints(first.mesh);
  const refined = windowFromMesh(first.mesh, eyeLineAngle(eyes.rightEye, eyes.leftEye));
  const second = await runMesh(img, refined, runner, signal);
  const faceScore = Math.max(first.faceScore, second.faceScore);
  if (faceScore < MESH_MIN_SCORE) return null;
  return { candidate: c, mesh: second.mesh, window: refined, faceScore };
}

async function runMesh(
  img: Parameters<typeof warpToTensor>[0],
  win: Window,
  runner: FaceModelRunner,
  signal?: AbortSignal,
): Promise<{ mesh: Point3[]; faceScore: number }> {
  const input = warpToTensor(img, win, { side: MESH_INPUT_PX, layout: 'nhwc', scale: 1 / 255, offset: 0, channels: 3 });
  const out = await runner.run('facemesh', input, signal);
  if (!out.mesh || !out.face_flag) throw new Error('facemesh: missing mesh/face_flag output');
  return { mesh: meshToImage(out.mesh, win), faceScore: out.face_flag[0]! };
}
