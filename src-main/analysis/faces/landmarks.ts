/**
 * Stage 2: facemesh refinement. Each candidate is cropped upright (rotated by its keypoint eye
 * line) and meshed; when the mesh shows the crop was off, it is re-cropped from the mesh
 * (MediaPipe's landmarks-to-ROI) and meshed again. Facemesh's face flag gates the candidate.
 * All candidates of an image share each pass's `session.run` (batched).
 */
import type { Candidate } from './detector';
import { eyeLineAngle, meshToImage, meshWindow, windowFromMesh } from './mesh-align';
import { keyPoints, type Point3 } from './mesh-geometry';
import type { ModelRunner, RgbImage, Window } from '../../inference';
import { runOnWindows } from './runner';

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

/** Meshes one candidate; returns null when facemesh's face flag is below `minScore`. */
export async function meshCandidate(
  img: RgbImage,
  c: Candidate,
  runner: ModelRunner,
  signal?: AbortSignal,
  minScore: number = MESH_MIN_SCORE,
): Promise<MeshedFace | null> {
  const [m] = await meshCandidates(img, [c], runner, signal, minScore);
  return m ?? null;
}

/**
 * Meshes candidates in two batched passes: every candidate's first crop in one batch, then the
 * re-crops of those whose first mesh says the crop was off in a second batch. Per candidate (in
 * input order) the same result as meshing it alone; null when facemesh's face flag is below `minScore`.
 */
export async function meshCandidates(
  img: RgbImage,
  cs: readonly Candidate[],
  runner: ModelRunner,
  signal?: AbortSignal,
  minScore: number = MESH_MIN_SCORE,
): Promise<(MeshedFace | null)[]> {
  const firstWins = cs.map((c) => {
    const kp = c.keypoints;
    return meshWindow(c.cx, c.cy, c.size, eyeLineAngle([kp[0]!, kp[1]!], [kp[2]!, kp[3]!]));
  });
  const firsts = await runMesh(img, firstWins, runner, signal);
  // Second pass only when the mesh says the first crop was off (MediaPipe re-crops from the
  // landmarks every frame; on a still image one re-crop suffices and most faces need none).
  const refined = firsts.map((first, i) => {
    const eyes = keyPoints(first.mesh);
    const win = windowFromMesh(first.mesh, eyeLineAngle(eyes.rightEye, eyes.leftEye));
    return framingChanged(firstWins[i]!, win) ? win : null;
  });
  const again = refined.flatMap((w, i) => (w ? [i] : []));
  const seconds = await runMesh(
    img,
    again.map((i) => refined[i]!),
    runner,
    signal,
  );
  const secondOf = new Map(again.map((i, k) => [i, seconds[k]!]));
  return cs.map((c, i) => {
    const first = firsts[i]!;
    const second = secondOf.get(i);
    const best = second && second.faceScore >= first.faceScore - 0.05 ? { ...second, win: refined[i]! } : { ...first, win: firstWins[i]! };
    if (best.faceScore < minScore) return null;
    return { candidate: c, mesh: best.mesh, window: best.win, faceScore: best.faceScore };
  });
}

/** Re-crop when the centre moved by > 8 % of the side, the side changed by > 15 % or the angle by > 8°. */
export function framingChanged(a: Window, b: Window): boolean {
  const moved = Math.hypot(a.cx - b.cx, a.cy - b.cy) / a.size;
  const scaled = Math.abs(Math.log(b.size / a.size));
  let turned = Math.abs(a.angleRad - b.angleRad) % (2 * Math.PI);
  if (turned > Math.PI) turned = 2 * Math.PI - turned;
  return moved > 0.08 || scaled > Math.log(1.15) || turned > (8 * Math.PI) / 180;
}

async function runMesh(
  img: RgbImage,
  wins: readonly Window[],
  runner: ModelRunner,
  signal?: AbortSignal,
): Promise<{ mesh: Point3[]; faceScore: number }[]> {
  const outs = await runOnWindows(runner, 'facemesh', img, wins, signal);
  return outs.map((out, i) => {
    if (!out.mesh || !out.face_flag) throw new Error('facemesh: missing mesh/face_flag output');
    return { mesh: meshToImage(out.mesh, wins[i]!), faceScore: out.face_flag[0]! };
  });
}
