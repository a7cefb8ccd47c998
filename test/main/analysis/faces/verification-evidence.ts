/**
 * For `npm run eval:faces`: the descriptor spread (face-verify.ts) of candidates on the fixtures'
 * truth faces, on harder versions of them (blurred, dark, JPEG q10, 20–40 px faces in a collage)
 * and on the negative images. The pool is wider than what the pipeline verifies (detector ≥ 0.35
 * instead of 0.5, face flag ≥ 0.2 instead of 0.8, FULL yaw range) so the negative side has more
 * than a handful of points. This is the data the threshold was chosen on (negatives' `tune`
 * half) and checked on (`holdout`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { detectCandidates } from '../../../../src-main/analysis/faces/detector';
import { runFaceres, req } from '../../../../src-main/analysis/faces/attributes';
import { descriptorSpread } from '../../../../src-main/analysis/faces/face-verify';
import { meshBox } from '../../../../src-main/analysis/faces/face-filter';
import { meshCandidate } from '../../../../src-main/analysis/faces/landmarks';
import { eyeLineAngle, windowFromMesh } from '../../../../src-main/analysis/faces/mesh-align';
import { headPose, keyPoints } from '../../../../src-main/analysis/faces/mesh-geometry';
import { searchLevels } from '../../../../src-main/analysis/faces/detect-faces';
import { selectorPlan } from '../../../../src-main/analysis/faces/selector';
import { fixture } from '../../../helpers/paths';
import { loadFixtures, loadNegatives, negativesDir, type FaceStack, type TruthFace } from './fixture-eval';
import { faceCollage } from './synthetic';

/** Wider than the pipeline's gates (DETECTOR_MIN_SCORE 0.5, face flag 0.8), see the file comment. */
const POOL = { minDetectorScore: 0.35, minFaceFlag: 0.2 } as const;

/** One candidate's evidence. */
export interface CandidateEvidence {
  file: string;
  /** `face`: a fixture's truth face; `hard face`: one of its degraded versions; `tune`/`holdout`: on a negative image. */
  kind: 'face' | 'hard face' | 'tune' | 'holdout';
  detectorScore: number;
  faceFlag: number;
  spread: number;
}

/** Evidence of every candidate on the fixtures (matched to truth) and the negative images. */
export async function collectEvidence(stack: FaceStack): Promise<CandidateEvidence[]> {
  const out: CandidateEvidence[] = [];
  const faces = async (file: string, path: string, truth: readonly TruthFace[], kind: 'face' | 'hard face'): Promise<void> => {
    for (const c of await candidatesOf(stack, path)) {
      const inTruth = truth.some((t) => c.cx >= t.left && c.cx <= t.left + t.width && c.cy >= t.top && c.cy <= t.top + t.height);
      if (inTruth) out.push({ file, kind, ...c.evidence });
    }
  };
  const dir = mkdtempSync(join(tmpdir(), 'picscan-verify-'));
  try {
    for (const e of loadFixtures()) {
      if (!e.truth.faces.length) continue;
      await faces(e.file, fixture(e.file), e.truth.faces, 'face');
      const hard: Record<string, sharp.Sharp> = {
        'blur σ2.5': sharp(fixture(e.file)).blur(2.5),
        'dark ×0.3': sharp(fixture(e.file)).linear(0.3, 0),
        'JPEG q10': sharp(fixture(e.file)),
      };
      for (const [name, img] of Object.entries(hard)) {
        const path = join(dir, 'hard.jpg');
        writeFileSync(path, await img.jpeg({ quality: name === 'JPEG q10' ? 10 : 90 }).toBuffer());
        await faces(`${e.file} (${name})`, path, e.truth.faces, 'hard face');
      }
    }
    const collage = await faceCollage({ width: 1600, height: 1200, cols: 4, rows: 3, faceSidesPx: [20, 26, 32, 40] });
    writeFileSync(join(dir, 'collage.jpg'), collage.bytes);
    await faces('collage of 20–40 px faces', join(dir, 'collage.jpg'), collage.faces, 'hard face');
  } finally {
    rmSync(dir, { recursive: true, force: true });
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
  const full = selectorPlan(['FULL']);
  const out = [];
  for (const c of await detectCandidates(
    img,
    searchLevels(img, { minHeadScale: 0.015, selector: full }),
    stack.runner,
    undefined,
    POOL.minDetectorScore,
  )) {
    const m = await meshCandidate(img, c, stack.runner, undefined, POOL.minFaceFlag);
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
