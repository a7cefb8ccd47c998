import type { AnalyzeFace, DetectedFace, FaceRectangle } from '../../shared/spec';
import type { FaceResult } from '../faces';

/** What the analysis rules need to know about one face (from the faces module's detect result). */
export interface FaceEvidence {
  box: FaceRectangle;
  /** Detector confidence 0..1. */
  confidence: number;
  age: number;
  gender: 'Male' | 'Female';
  /** 0..1 confidence of the gender call (max of male/female confidence). */
  genderConfidence: number;
  glasses: boolean;
  /** Smiling: emotion model's `happy` ≥ SMILE_MIN_HAPPY (or, from detect JSON, lips apart). */
  smiling: boolean;
}

/** Probability of the `happy` emotion from which a face counts as smiling. */
export const SMILE_MIN_HAPPY = 0.5;

/** Adapts the faces library's results (analyze's own face search) to face evidence. */
export function faceEvidenceFromResults(faces: readonly FaceResult[]): FaceEvidence[] {
  return faces.map((f) => ({
    box: { left: Math.round(f.box.left), top: Math.round(f.box.top), width: Math.round(f.box.width), height: Math.round(f.box.height) },
    confidence: f.confidence,
    age: f.ageYears,
    gender: f.male >= 0.5 ? 'Male' : 'Female',
    genderConfidence: Math.max(f.male, 1 - f.male),
    glasses: f.glasses !== 'None',
    smiling: f.emotions.happy >= SMILE_MIN_HAPPY,
  }));
}

/** Adapts the detect operation's faces (spec §2.4) to face evidence. */
export function faceEvidenceFromDetected(faces: readonly DetectedFace[]): FaceEvidence[] {
  return faces.map((f) => ({
    box: { left: f.topLeftX, top: f.topLeftY, width: f.width, height: f.height },
    confidence: f.confidence,
    age: f.attributes.age,
    gender: f.attributes.gender.type === 'F' ? 'Female' : 'Male',
    genderConfidence: Math.max(f.attributes.gender.maleConfidence, f.attributes.gender.femaleConfidence),
    glasses: f.attributes.glasses !== 'None',
    smiling: f.attributes.lips === 'Apart',
  }));
}

/**
 * The Faces feature: the same faces detect finds, as `{ age, gender, faceRectangle }`. The
 * rectangle is the part of the face box inside the `width` × `height` image: a face cut by the
 * photo's edge (a forehead above the frame) has a box reaching outside it, and an Azure face
 * rectangle lies in the image.
 */
export function toAnalyzeFaces(faces: readonly FaceEvidence[], width: number, height: number): AnalyzeFace[] {
  return faces.map((f) => ({ age: Math.round(f.age), gender: f.gender, faceRectangle: insideImage(f.box, width, height) }));
}

/** The part of an integer pixel box inside a `width` × `height` image (at least 1 × 1 px). */
export function insideImage(b: FaceEvidence['box'], width: number, height: number): FaceEvidence['box'] {
  const left = Math.min(Math.max(0, b.left), width - 1);
  const top = Math.min(Math.max(0, b.top), height - 1);
  const right = Math.max(left + 1, Math.min(width, b.left + b.width));
  const bottom = Math.max(top + 1, Math.min(height, b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
}
