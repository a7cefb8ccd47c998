/**
 * The face pipeline: tile search (BlazeFace) → facemesh refinement → geometry, pose, quality and
 * attribute models → `FaceResult`s in image px, ordered for `face_id`.
 */
import type { RgbImage } from '../../inference/image';
import { estimateAttributes, type AttributeScores } from './attributes';
import { detectCandidates, type Candidate } from './detector';
import { facePatch, laplacianStd } from './face-patch';
import { classifyGlasses } from './glasses';
import { glassesFeatures } from './glasses';
import { meshCandidate, MESH_MIN_SCORE, type MeshedFace } from './landmarks';
import { eyeLineAngle, windowFromMesh } from './mesh-align';
import { headPose, keyPoints, mouthOpening, type Point3 } from './mesh-geometry';
import { faceQuality } from './quality';
import type { FaceModelRunner } from './runner';
import { countWindows, minFacePx, planSearch, type SearchLevel } from './search-plan';
import type { SelectorPlan } from './selector';

/** One detected face with everything the detect and analyze operations report. */
export interface FaceResult {
  /** Axis-aligned square box around the mesh, image px (float; round at the edge). */
  box: { left: number; top: number; width: number; height: number };
  /** Subject's own eyes (left eye on the viewer's right) and chin tip, image px. */
  leftEye: [number, number];
  rightEye: [number, number];
  chinTip: [number, number];
  /** Degrees; signs in mesh-geometry.ts `headPose` and docs/faces.md. */
  yaw: number;
  pitch: number;
  roll: number;
  /** 0..1: mean of detector score and facemesh's face flag. */
  confidence: number;
  /** 0..1, see quality.ts. */
  quality: number;
  lips: 'Together' | 'Apart';
  glasses: 'None' | 'Eye' | 'Sun';
  /** Probability the face is male, 0..1. */
  male: number;
  ageYears: number;
  ethnicity: AttributeScores['ethnicity'];
  emotions: AttributeScores['emotions'];
  /** 468 mesh points `[x, y, z]`, image px. */
  mesh: Point3[];
}

/** Options of `detectFacesInImage`. */
export interface DetectOptions {
  /** Smallest face to search as a fraction of the shorter image side (0.015..0.5). */
  minHeadScale: number;
  selector: SelectorPlan;
  /** Skip the attribute models (age, gender, ethnicity, emotion get neutral values). */
  skipAttributes?: boolean;
  /** Filled with per-stage counts and wall times when given (benchmarks, service timings). */
  stats?: FaceSearchStats;
}

/** Per-stage figures of one `detectFacesInImage` call; times are wall ms. */
export interface FaceSearchStats {
  windows: number;
  candidates: number;
  faces: number;
  searchMs: number;
  landmarksMs: number;
  attributesMs: number;
}

/** Mouth opening (lip gap / face height) above which lips are `Apart`. */
export const LIPS_APART_RATIO = 0.03;
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
 * Finds faces in a decoded image. `runner` runs the ONNX models (see `engineRunner`).
 *
 * @example
 * const faces = await detectFacesInImage(image, { minHeadScale: 0.015, selector: parseSelector('FRONTAL')! }, engineRunner(engine));
 */
export async function detectFacesInImage(
  img: RgbImage,
  opts: DetectOptions,
  runner: FaceModelRunner,
  signal?: AbortSignal,
): Promise<FaceResult[]> {
  const t0 = performance.now();
  const levels = searchLevels(img, opts);
  const candidates = await detectCandidates(img, levels, runner, signal);
  const t1 = performance.now();
  const accept = (m: MeshedFace): boolean =>
    m.faceScore >= minFlagFor(m, FACE_FLAG_MIN.normal) ||
    // PARTIAL: facemesh scores half-occluded faces like clutter (0.00–0.22 measured), so a
    // confident detection with face-like eye geometry is enough; the mesh still supplies the rest.
    (opts.selector.partial && m.candidate.score >= PARTIAL_MIN_DETECTOR_SCORE && plausibleEyes(m));
  const meshed = await mapLimited(candidates, 2, (c) => meshCandidate(img, c, runner, signal, opts.selector.partial ? 0 : MESH_MIN_SCORE));
  const kept: MeshedFace[] = [];
  // Strongest first by the reported confidence (detector and face flag), so a face confirmed by
  // facemesh claims its area before weaker detections inside it (e.g. one eye of it, found at a finer level).
  const ranked = meshed
    .filter((m): m is MeshedFace => m !== null)
    .sort((a, b) => b.candidate.score + b.faceScore - (a.candidate.score + a.faceScore));
  for (const m of ranked) {
    if (!accept(m)) continue;
    if (Math.abs(headPose(m.mesh).yaw) > opts.selector.maxAbsYawDeg) continue;
    if (kept.some((k) => sameEyes(k.mesh, m.mesh) || centreInside(m, k))) continue;
    kept.push(m);
  }
  const t2 = performance.now();
  const faces = await mapLimited(kept, 2, (m) => describeFace(img, m, opts, runner, signal));
  if (opts.stats) {
    Object.assign(opts.stats, {
      windows: countWindows(levels),
      candidates: candidates.length,
      faces: faces.length,
      searchMs: t1 - t0,
      landmarksMs: t2 - t1,
      attributesMs: performance.now() - t2,
    } satisfies FaceSearchStats);
  }
  return orderFaces(faces);
}

/** The search windows for an image and options (upright, plus 90/180/270° copies for ROLL). */
export function searchLevels(img: { width: number; height: number }, opts: DetectOptions): SearchLevel[] {
  const minFace = minFacePx(img.width, img.height, opts.minHeadScale);
  const angles = opts.selector.roll ? [0, 90, 180, 270] : [0];
  return angles.flatMap((deg) => planSearch(img.width, img.height, minFace, (deg * Math.PI) / 180));
}

/** face_id order: left to right by box centre, ties top to bottom. */
export function orderFaces(faces: FaceResult[]): FaceResult[] {
  const cx = (f: FaceResult): number => f.box.left + f.box.width / 2;
  const cy = (f: FaceResult): number => f.box.top + f.box.height / 2;
  return [...faces].sort((a, b) => cx(a) - cx(b) || cy(a) - cy(b));
}

async function describeFace(
  img: RgbImage,
  m: MeshedFace,
  opts: DetectOptions,
  runner: FaceModelRunner,
  signal?: AbortSignal,
): Promise<FaceResult> {
  const kp = keyPoints(m.mesh);
  const pose = headPose(m.mesh);
  const faceWin = windowFromMesh(m.mesh, eyeLineAngle(kp.rightEye, kp.leftEye), 1);
  const patch = facePatch(img, faceWin);
  const box = meshBox(m.mesh);
  const confidence = (m.candidate.score + m.faceScore) / 2;
  const attrs = opts.skipAttributes ? neutralAttributes() : await estimateAttributes(img, faceWin, runner, signal);
  return {
    box,
    leftEye: kp.leftEye,
    rightEye: kp.rightEye,
    chinTip: kp.chin,
    yaw: pose.yaw,
    pitch: pose.pitch,
    roll: eyeLineAngle(kp.rightEye, kp.leftEye) * (180 / Math.PI),
    confidence,
    quality: faceQuality({ sidePx: box.width, sharpness: laplacianStd(patch), yawDeg: pose.yaw, pitchDeg: pose.pitch, confidence }),
    lips: mouthOpening(m.mesh) > LIPS_APART_RATIO ? 'Apart' : 'Together',
    glasses: classifyGlasses(glassesFeatures(patch, m.mesh), pose.yaw),
    male: attrs.male,
    ageYears: attrs.ageYears,
    ethnicity: attrs.ethnicity,
    emotions: attrs.emotions,
    mesh: m.mesh,
  };
}

// Square box centred on the mesh's axis-aligned extent, side = the larger extent (Kairos boxes
// are square; the mesh spans forehead top to chin and cheek to cheek).
function meshBox(mesh: readonly Point3[]): FaceResult['box'] {
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
function sameEyes(a: readonly Point3[], b: readonly Point3[]): boolean {
  const ka = keyPoints(a);
  const kb = keyPoints(b);
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

// A weaker face whose box centre — or whose detection's centre — lies inside a stronger face's
// box is the same face or a patch straddling it and a neighbour: two real faces never sit one
// inside the other's box.
function centreInside(weak: MeshedFace, strong: MeshedFace): boolean {
  const a = meshBox(weak.mesh);
  const b = meshBox(strong.mesh);
  const inside = (x: number, y: number): boolean => x > b.left && x < b.left + b.width && y > b.top && y < b.top + b.height;
  return inside(a.left + a.width / 2, a.top + a.height / 2) || inside(weak.candidate.cx, weak.candidate.cy);
}

// Maps with at most `limit` calls in flight; results in input order.
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function neutralAttributes(): AttributeScores {
  return {
    male: 0.5,
    ageYears: 0,
    ethnicity: { asian: 0.2, hispanic: 0.2, black: 0.2, white: 0.2, other: 0.2 },
    emotions: { angry: 0, disgust: 0, fear: 0, happy: 0, sad: 0, surprise: 0, neutral: 1 },
  };
}

export type { Candidate };
