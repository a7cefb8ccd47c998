import type { AnalyzeFace, DetectedFace, FaceRectangle } from '../../shared/spec';

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
  /** Mouth open with lips apart: the detect attributes' best available smile cue. */
  smiling: boolean;
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

/** The Faces feature: the same faces detect finds, as `{ age, gender, faceRectangle }`. */
export function toAnalyzeFaces(faces: readonly FaceEvidence[]): AnalyzeFace[] {
  return faces.map((f) => ({ age: Math.round(f.age), gender: f.gender, faceRectangle: { ...f.box } }));
}
