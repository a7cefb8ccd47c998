/**
 * Kairos response shaping for `ai/faces/detect`: integer face records and the `{ Errors }` body
 * (HTTP 200) with the reference's codes and messages (upstream-apis.md §2.3).
 */
import type { FaceResult } from '../analysis/faces';
import { KAIROS, KAIROS_MESSAGES, type KairosCode } from '../shared/api-errors';
import type { DetectedFace, DetectErrors } from '../shared/spec';

export { KAIROS };

/** The `{ Errors: [ { Message, ErrCode } ] }` body for one code. */
export function kairosError(code: KairosCode): DetectErrors {
  return { Errors: [{ Message: KAIROS_MESSAGES[code] ?? KAIROS_MESSAGES[KAIROS.invalidParameter]!, ErrCode: code }] };
}

const round5 = (x: number): number => Math.round(x * 1e5) / 1e5;

/** One `FaceResult` as the spec's DetectedFace: integer px and degrees, 5-decimal scores. */
export function toDetectedFace(f: FaceResult, faceId: number): DetectedFace {
  const male = round5(f.male);
  const e = f.ethnicity;
  // Round four shares and give the fifth the remainder so the five sum to exactly 1.
  const asian = round5(e.asian);
  const hispanic = round5(e.hispanic);
  const black = round5(e.black);
  const white = round5(e.white);
  const other = round5(Math.max(0, 1 - asian - hispanic - black - white));
  return {
    face_id: faceId,
    topLeftX: Math.round(f.box.left),
    topLeftY: Math.round(f.box.top),
    width: Math.round(f.box.width),
    height: Math.round(f.box.height),
    chinTipX: Math.round(f.chinTip[0]),
    chinTipY: Math.round(f.chinTip[1]),
    leftEyeCenterX: Math.round(f.leftEye[0]),
    leftEyeCenterY: Math.round(f.leftEye[1]),
    rightEyeCenterX: Math.round(f.rightEye[0]),
    rightEyeCenterY: Math.round(f.rightEye[1]),
    yaw: Math.round(f.yaw),
    pitch: Math.round(f.pitch),
    roll: Math.round(f.roll),
    confidence: round5(f.confidence),
    quality: round5(f.quality),
    attributes: {
      lips: f.lips,
      glasses: f.glasses,
      gender: { type: f.male >= 0.5 ? 'M' : 'F', maleConfidence: male, femaleConfidence: round5(1 - male) },
      age: Math.max(0, Math.round(f.ageYears)),
      asian,
      hispanic,
      black,
      white,
      other,
    },
  };
}
