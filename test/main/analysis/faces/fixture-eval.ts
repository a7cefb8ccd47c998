/**
 * Shared by `npm run eval:faces` and the CI target tests: the real face stack over the shared
 * fixtures and the scoring rules of issue 5 (a match is IoU ≥ 0.3 or the predicted centre inside
 * the truth box; one prediction per truth face).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FACE_MODEL_THREADS } from '../../../../src-main/analysis/faces';
import { InferenceEngine, loadManifest, type ModelRunner } from '../../../../src-main/inference';
import { createImageLoader, intakeOptions, type ImageLoader } from '../../../../src-main/intake';
import { parseDetectParams, type RawParams } from '../../../../src-main/services/api';
import { createDetectService, type DetectOutcome } from '../../../../src-main/services/detect.service';
import type { DetectedFace } from '../../../../src-main/shared/spec';
import { fixture, fixturesDir, repoRoot } from '../../../helpers/paths';

/** The face-free negative images (test/fixtures/negatives, LICENSES.md there). */
export const negativesDir = join(repoRoot, 'test', 'fixtures', 'negatives');

/** A ground-truth face box of the fixture manifest. */
export interface TruthFace {
  left: number;
  top: number;
  width: number;
  height: number;
  name?: string;
  /** Optional eye landmarks (subject's own sides), when a manifest provides them. */
  leftEye?: [number, number];
  rightEye?: [number, number];
}

/** One fixture entry (fields used here). */
export interface FixtureEntry {
  file: string;
  width: number;
  height: number;
  truth: { faces: TruthFace[]; facesComplete: boolean };
  notes?: string;
}

/** Named people whose gender the targets check (manifest `name` → expected Kairos type). */
export const NAMED_GENDER: Record<string, 'M' | 'F'> = {
  'Barack Obama': 'M',
  'Joe Biden': 'M',
  'Tom Cruise': 'M',
  'Grace Hopper': 'F',
  'Eileen Collins': 'F',
};

/**
 * Glasses labels for the fixture faces (our own visual labelling; the manifest has none): Grace
 * Hopper wears eyeglasses, no other fixture face wears glasses or sunglasses.
 */
export const GLASSES_TRUTH: Record<string, 'None' | 'Eye' | 'Sun'> = { 'grace_hopper.jpg': 'Eye' };

/** The fixture manifest. */
export function loadFixtures(): FixtureEntry[] {
  return JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as FixtureEntry[];
}

/** The real stack: engine over `models/`, runner, desktop intake, detect service. */
/** The detect service behind the contract's parameter parsing, as the API gateway calls it. */
export interface RawDetectService {
  /** Parses `params` (throws the contract's `AppError` for a bad one), then detects. */
  detect(params: RawParams, signal?: AbortSignal): Promise<DetectOutcome>;
}

export interface FaceStack {
  engine: InferenceEngine;
  runner: ModelRunner;
  loader: ImageLoader;
  service: RawDetectService;
  close(): Promise<void>;
}

/**
 * Opens the stack with `threads` intra-op threads per model (2 = the target machines), the face
 * models capped at `FACE_MODEL_THREADS` as in the app.
 */
export function openFaceStack(threads = 2): FaceStack {
  const modelsDir = join(repoRoot, 'models');
  const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), {
    modelsDir,
    intraOpNumThreads: threads,
    maxModelThreads: FACE_MODEL_THREADS,
  });
  const runner = engine;
  const loader = createImageLoader(intakeOptions('desktop'));
  const detector = createDetectService({ runner, loader });
  const service: RawDetectService = { detect: async (params, signal) => detector.detect(parseDetectParams(params), signal) };
  return {
    engine,
    runner,
    loader,
    service,
    async close() {
      await loader.close();
      await engine.dispose();
    },
  };
}

/** Whether a predicted face matches a truth box. */
export function isMatch(p: DetectedFace, t: TruthFace): boolean {
  const cx = p.topLeftX + p.width / 2;
  const cy = p.topLeftY + p.height / 2;
  if (cx >= t.left && cx <= t.left + t.width && cy >= t.top && cy <= t.top + t.height) return true;
  return iou(p, t) >= 0.3;
}

function iou(p: DetectedFace, t: TruthFace): number {
  const x1 = Math.max(p.topLeftX, t.left);
  const y1 = Math.max(p.topLeftY, t.top);
  const x2 = Math.min(p.topLeftX + p.width, t.left + t.width);
  const y2 = Math.min(p.topLeftY + p.height, t.top + t.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  return inter / (p.width * p.height + t.width * t.height - inter);
}

/** Greedy one-to-one matching: for each truth face the first unused matching prediction. */
export function matchFaces(pred: readonly DetectedFace[], truth: readonly TruthFace[]): Array<[TruthFace, DetectedFace | undefined]> {
  const used = new Set<DetectedFace>();
  return truth.map((t) => {
    const p = pred.find((q) => !used.has(q) && isMatch(q, t));
    if (p) used.add(p);
    return [t, p];
  });
}

/** Per-image outcome of one eval pass. */
export interface ImageEval {
  file: string;
  facesComplete: boolean;
  truth: number;
  predicted: number;
  matched: number;
  ms: number;
  gender: Array<{ name: string; expected: 'M' | 'F'; got: 'M' | 'F' | 'missed'; maleConfidence?: number }>;
  /** Eye error / inter-ocular distance, for truth faces that carry eye landmarks. */
  eyeErrors: number[];
  /** Confidence of every face reported on the image. */
  confidences: number[];
  /** Glasses of each matched face vs `GLASSES_TRUTH` (default None). */
  glasses: Array<{ expected: string; got: string }>;
  errCode?: number;
}

/** Totals over an eval pass. */
export interface EvalSummary {
  images: ImageEval[];
  recall: number;
  precision: number;
  /** Faces reported on face-free images (truth empty, facesComplete). */
  falseFacesOnEmpty: number;
  genderCorrect: number;
  genderTotal: number;
}

/** Runs the detect service over every fixture with `params` and scores it. */
export async function evaluate(
  service: RawDetectService,
  params: { minHeadScale?: number; selector?: unknown } = {},
): Promise<EvalSummary> {
  const images: ImageEval[] = [];
  for (const e of loadFixtures()) {
    const out = await service.detect({ image: fixture(e.file), ...params });
    const r = out.response;
    const faces = 'images' in r ? (r.images[0]?.faces ?? []) : [];
    const pairs = matchFaces(faces, e.truth.faces);
    images.push({
      file: e.file,
      facesComplete: e.truth.facesComplete,
      truth: e.truth.faces.length,
      predicted: faces.length,
      matched: pairs.filter(([, p]) => p).length,
      confidences: faces.map((f) => f.confidence),
      ms: out.timingsMs.total,
      gender: pairs
        .filter(([t]) => t.name && NAMED_GENDER[t.name])
        .map(([t, p]) => ({
          name: t.name!,
          expected: NAMED_GENDER[t.name!]!,
          got: p ? p.attributes.gender.type : 'missed',
          maleConfidence: p?.attributes.gender.maleConfidence,
        })),
      glasses: pairs.flatMap(([, p]) => (p ? [{ expected: GLASSES_TRUTH[e.file] ?? 'None', got: p.attributes.glasses }] : [])),
      eyeErrors: pairs.flatMap(([t, p]) => (p && t.leftEye && t.rightEye ? [eyeError(p, t)] : [])),
      errCode: 'Errors' in r ? r.Errors[0]?.ErrCode : undefined,
    });
  }
  const complete = images.filter((i) => i.facesComplete);
  const truth = complete.reduce((n, i) => n + i.truth, 0);
  const matched = complete.reduce((n, i) => n + i.matched, 0);
  const predicted = complete.reduce((n, i) => n + i.predicted, 0);
  const genders = images.flatMap((i) => i.gender);
  return {
    images,
    recall: truth ? matched / truth : 1,
    precision: predicted ? matched / predicted : 1,
    falseFacesOnEmpty: complete.filter((i) => i.truth === 0).reduce((n, i) => n + i.predicted, 0),
    genderCorrect: genders.filter((g) => g.got === g.expected).length,
    genderTotal: genders.length,
  };
}

function eyeError(p: DetectedFace, t: TruthFace): number {
  const [lx, ly] = t.leftEye!;
  const [rx, ry] = t.rightEye!;
  const ied = Math.hypot(lx - rx, ly - ry);
  const e = Math.max(Math.hypot(p.leftEyeCenterX - lx, p.leftEyeCenterY - ly), Math.hypot(p.rightEyeCenterX - rx, p.rightEyeCenterY - ry));
  return e / ied;
}

/** One negative image (fields used here): no human face anywhere. */
export interface NegativeEntry {
  file: string;
  category: string;
  /** `tune`: used to choose the verification thresholds; `holdout`: only scored. */
  split: 'tune' | 'holdout';
}

/** The negative manifest. */
export function loadNegatives(): NegativeEntry[] {
  return JSON.parse(readFileSync(join(negativesDir, 'manifest.json'), 'utf8')) as NegativeEntry[];
}

/** Per-image outcome on a negative image: every face reported is a false face. */
export interface NegativeEval extends NegativeEntry {
  faces: number;
  confidences: number[];
  errCode?: number;
}

/** Runs the detect service over every negative image with `params`. */
export async function evaluateNegatives(
  service: RawDetectService,
  params: { minHeadScale?: number; selector?: unknown } = {},
): Promise<NegativeEval[]> {
  const out: NegativeEval[] = [];
  for (const e of loadNegatives()) {
    const r = (await service.detect({ image: join(negativesDir, e.file), ...params })).response;
    const faces = 'images' in r ? (r.images[0]?.faces ?? []) : [];
    out.push({
      ...e,
      faces: faces.length,
      confidences: faces.map((f) => f.confidence),
      errCode: 'Errors' in r ? r.Errors[0]?.ErrCode : undefined,
    });
  }
  return out;
}
