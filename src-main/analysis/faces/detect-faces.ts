/**
 * The face pipeline: tile search (BlazeFace) → facemesh refinement → geometry, pose, quality and
 * attribute models → `FaceResult`s in image px, ordered for `face_id`.
 */
import { AppError } from '../../core';
import type { Box, RgbImage, Window } from '../../inference';
import {
  estimateAttributesBatch,
  NEUTRAL_ETHNICITY,
  req,
  runFaceresBatch,
  type AttributeScores,
  type FaceAttributeLevel,
} from './attributes';
import { detectCandidates, type Candidate } from './detector';
import { facePatch, laplacianStd, type FacePatch } from './face-patch';
import { descriptorSpread, verifyFace } from './face-verify';
import { classifyGlasses, glassesFeatures } from './glasses';
import { meshBox, selectFaces } from './face-filter';
import { meshCandidates, MESH_MIN_SCORE, type MeshedFace } from './landmarks';
import { eyeLineAngle, windowFromMesh } from './mesh-align';
import { headPose, keyPoints, mouthOpening, type Point3 } from './mesh-geometry';
import { faceQuality } from './quality';
import type { ModelRunner } from '../../inference';
import { countWindows, minFacePx, planSearch, type SearchLevel } from './search-plan';
import type { SelectorPlan } from './selector';

/** One detected face with everything the detect and analyze operations report. */
export interface FaceResult {
  /** Axis-aligned square box around the mesh, image px (float; round at the edge). */
  box: Box;
  /** Subject's own eyes (left eye on the viewer's right) and chin tip, image px. */
  leftEye: [number, number];
  rightEye: [number, number];
  chinTip: [number, number];
  /** Degrees; signs in mesh-geometry.ts `headPose` and docs/faces.md. */
  yaw: number;
  pitch: number;
  roll: number;
  /** 0..1, calibrated: mean of detector score, facemesh's face flag and the descriptor term (face-verify.ts). */
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
  /**
   * Which attribute models run on each verified face (attributes.ts `FaceAttributeLevel`): `full`
   * (default; detect), `summary` (gear on the SUMMARY_GEAR_FACES largest faces only, the others
   * age and gender from faceres alone and neutral ethnicity; analyze) or `none` (neutral age,
   * gender, ethnicity and emotion).
   */
  attributes?: FaceAttributeLevel;
  /** The same as `attributes: 'none'` (kept for the callers that only need geometry). */
  skipAttributes?: boolean;
  /** Filled with per-stage counts and wall times when given (benchmarks, service timings). */
  stats?: FaceSearchStats;
  /**
   * More verified faces than this throw `too-many-faces` before the attribute models run: the
   * caller refuses such an image (detect's 5010), so their per-face work would be thrown away.
   */
  maxFaces?: number;
}

/** Per-stage figures of one `detectFacesInImage` call; times are wall ms. */
export interface FaceSearchStats {
  windows: number;
  candidates: number;
  /** Faces the search kept; a caller's later rule (an animal's head, faces-not-animals.ts) may drop more. */
  faces: number;
  /** Faces dropped by the verification stage (face-verify.ts). */
  rejected: number;
  searchMs: number;
  landmarksMs: number;
  attributesMs: number;
}

/** Mouth opening (lip gap / face height) above which lips are `Apart`. */
export const LIPS_APART_RATIO = 0.03;
/**
 * Finds faces in a decoded image. `runner` runs the ONNX models (the InferenceEngine or any `ModelRunner`).
 *
 * @example
 * const faces = await detectFacesInImage(image, { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']) }, engine);
 */
export async function detectFacesInImage(
  img: RgbImage,
  opts: DetectOptions,
  runner: ModelRunner,
  signal?: AbortSignal,
): Promise<FaceResult[]> {
  const t0 = performance.now();
  const levels = searchLevels(img, opts);
  const candidates = await detectCandidates(img, levels, runner, signal);
  const t1 = performance.now();
  // Batched stages (one session.run per model and pass for all faces, runner.ts `runOnWindows`):
  // mesh every candidate, then keep real faces in the selector's yaw range without duplicates;
  // only those get faceres, whose descriptor verifies the face (face-verify.ts), and only the
  // verified ones get gear and emotion (as `opts.attributes` asks), the expensive part.
  const meshed = await meshCandidates(img, candidates, runner, signal, opts.selector.partial ? 0 : MESH_MIN_SCORE);
  const kept = selectFaces(meshed, opts.selector);
  const t2 = performance.now();
  const faceWins = kept.map(faceWindow);
  const faceres = await runFaceresBatch(img, faceWins, runner, signal);
  const accepted = kept.flatMap((m, i) => {
    const verdict = verifyFace(
      { detectorScore: m.candidate.score, faceFlag: m.faceScore, descriptorSpread: descriptorSpread(req(faceres[i]!, 'descriptor')) },
      opts.selector.partial,
    );
    return verdict.accepted ? [{ m, win: faceWins[i]!, faceres: faceres[i]!, confidence: verdict.confidence }] : [];
  });
  if (opts.maxFaces !== undefined && accepted.length > opts.maxFaces) {
    if (opts.stats) {
      const stats: FaceSearchStats = {
        windows: countWindows(levels),
        candidates: candidates.length,
        faces: accepted.length,
        rejected: kept.length - accepted.length,
        searchMs: t1 - t0,
        landmarksMs: t2 - t1,
        attributesMs: 0,
      };
      Object.assign(opts.stats, stats);
    }
    throw new AppError('too-many-faces', `${accepted.length} faces found; at most ${opts.maxFaces} are described.`, {
      details: { faces: accepted.length, limit: opts.maxFaces },
    });
  }
  const level = opts.skipAttributes ? 'none' : (opts.attributes ?? 'full');
  const attrs =
    level === 'none'
      ? accepted.map(neutralAttributes)
      : await estimateAttributesBatch(
          img,
          accepted.map((a) => a.win),
          runner,
          signal,
          accepted.map((a) => a.faceres),
          level,
        );
  const patches = await Promise.all(accepted.map((a) => facePatch(img, a.win)));
  const faces = accepted.map((a, i) => describeFace(a.m, patches[i]!, a.confidence, attrs[i]!));
  if (opts.stats) {
    Object.assign(opts.stats, {
      windows: countWindows(levels),
      candidates: candidates.length,
      faces: faces.length,
      rejected: kept.length - faces.length,
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

// The upright window of a meshed face: side = the mesh's extent, rotated by its eye line.
function faceWindow(m: MeshedFace): Window {
  const kp = keyPoints(m.mesh);
  return windowFromMesh(m.mesh, eyeLineAngle(kp.rightEye, kp.leftEye), 1);
}

// The reported face of a verified mesh and its luma patch (pure).
function describeFace(m: MeshedFace, patch: FacePatch, confidence: number, attrs: AttributeScores): FaceResult {
  const kp = keyPoints(m.mesh);
  const pose = headPose(m.mesh);
  const box = meshBox(m.mesh);
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

function neutralAttributes(): AttributeScores {
  return {
    male: 0.5,
    ageYears: 0,
    ethnicity: { ...NEUTRAL_ETHNICITY },
    emotions: { angry: 0, disgust: 0, fear: 0, happy: 0, sad: 0, surprise: 0, neutral: 1 },
  };
}

export type { Candidate };
