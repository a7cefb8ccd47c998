/**
 * For `npm run eval:faces`: the descriptor spread (face-verify.ts) of every candidate that
 * reaches facemesh (detector ≥ 0.5, face flag ≥ 0.5, FULL yaw range, before the flag's 0.8 gate
 * and before verification), on the fixtures' truth faces and on the negative images. This is
 * the data the threshold was chosen on (negatives' `tune` half) and checked on (`holdout`).
 */
import { join } from 'node:path';
import { detectCandidates } from '../../../../src-main/analysis/faces/detector';
import { runFaceres, req } from '../../../../src-main/analysis/faces/attributes';
import { descriptorSpread } from '../../../../src-main/analysis/faces/face-verify';
import { meshBox } from '../../../../src-main/analysis/faces/face-filter';
import { meshCandidate } from '../../../../src-main/analysis/faces/landmarks';
import { eyeLineAngle, windowFromMesh } from '../../../../src-main/analysis/faces/mesh-align';
import { headPose, keyPoints } from '../../../../src-main/analysis/faces/mesh-geometry';
import { searchLevels } from '../../../../src-main/analysis/faces/detect-faces';
import { parseSelector } from '../../../../src-main/analysis/faces/selector';
import { fixture } from '../../../helpers/paths';
import { loadFixtures, loadNegatives, negativesDir, type FaceStack } from './fixture-eval';

/** One candidate's evidence. */
export interface CandidateEvidence {
  file: string;
  /** `face`: matches a truth face of a fixture; `tune`/`holdout`: on a negative image. */
  kind: 'face' | 'tune' | 'holdout';
  detectorScore: number;
  faceFlag: number;
  spread: number;
}

/** Evidence of every candidate on the fixtures (matched to truth) and the negative images. */
export async function collectEvidence(stack: FaceStack): Promise<CandidateEvidence[]> {
  const out: CandidateEvidence[] = [];
  for (const e of loadFixtures()) {
    for (const c of await candidatesOf(stack, fixture(e.file))) {
      const inTruth = e.truth.faces.some((t) => c.cx >= t.left && c.cx <= t.left + t.width && c.cy >= t.top && c.cy <= t.top + t.height);
      if (inTruth) out.push({ file: e.file, kind: 'face', ...c.evidence });
    }
  }
  for (const e of loadNegatives()) {
    for (const c of await candidatesOf(stack, join(negativesDir, e.file))) out.push({ file: e.file, kind: e.split, ...c.evidence });
  }
  return out;
}

async function candidatesOf(
  stack: FaceStack,
  path: string,
): Promise<Array<{ cx: number; cy: number; evidence: Pick<CandidateEvidence, 'detectorScore' | 'faceFlag' | 'spread'> }>> {
  const img = (await stack.loader.load(path, undefined, { thumbnail: false })).image;
  const full = parseSelector('FULL')!;
  const out = [];
  for (const c of await detectCandidates(img, searchLevels(img, { minHeadScale: 0.015, selector: full }), stack.runner)) {
    const m = await meshCandidate(img, c, stack.runner);
    if (!m || Math.abs(headPose(m.mesh).yaw) > full.maxAbsYawDeg) continue;
    const kp = keyPoints(m.mesh);
    const faceres = await runFaceres(img, windowFromMesh(m.mesh, eyeLineAngle(kp.rightEye, kp.leftEye), 1), stack.runner);
    const box = meshBox(m.mesh);
    out.push({
      cx: box.left + box.width / 2,
      cy: box.top + box.height / 2,
      evidence: { detectorScore: c.score, faceFlag: m.faceScore, spread: descriptorSpread(req(faceres, 'descriptor')) },
    });
  }
  return out;
}
