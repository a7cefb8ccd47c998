import { describe, expect, it } from 'vitest';
import type { FaceResult } from '../../../src-main/analysis/faces';
import { kairosError, toDetectedFace } from '../../../src-main/services/detect-response';

const face: FaceResult = {
  box: { left: 10.4, top: 20.6, width: 99.5, height: 99.5 },
  leftEye: [80.2, 50.7],
  rightEye: [40.8, 49.1],
  chinTip: [60.5, 118.9],
  yaw: -3.4,
  pitch: 12.6,
  roll: 2.5,
  confidence: 0.9876543,
  quality: 0.5,
  lips: 'Apart',
  glasses: 'None',
  male: 0.123456,
  ageYears: 33.6,
  ethnicity: { asian: 0.1 / 3, hispanic: 0.2 / 3, black: 0.3 / 3, white: 2.1 / 3, other: 0.3 / 3 },
  emotions: { angry: 0, disgust: 0, fear: 0, happy: 0.9, sad: 0, surprise: 0, neutral: 0.1 },
  mesh: [],
};

describe('toDetectedFace', () => {
  it('rounds coordinates and angles to integers and scores to 5 decimals', () => {
    expect(toDetectedFace(face, 3)).toMatchObject({
      face_id: 3,
      topLeftX: 10,
      topLeftY: 21,
      width: 100,
      height: 100,
      chinTipX: 61,
      chinTipY: 119,
      leftEyeCenterX: 80,
      rightEyeCenterX: 41,
      yaw: -3,
      pitch: 13,
      roll: 3,
      confidence: 0.98765,
      attributes: { lips: 'Apart', glasses: 'None', age: 34, gender: { type: 'F', maleConfidence: 0.12346, femaleConfidence: 0.87654 } },
    });
  });

  it('makes the five ethnicity shares sum to exactly 1', () => {
    const a = toDetectedFace(face, 1).attributes;
    expect(a.asian + a.hispanic + a.black + a.white + a.other).toBeCloseTo(1, 10);
  });
});

describe('kairosError', () => {
  it('uses the reference wording', () => {
    expect(kairosError(5002)).toEqual({ Errors: [{ Message: 'no faces found in the image', ErrCode: 5002 }] });
    expect(kairosError(5001).Errors[0]!.Message).toBe('an invalid image URL was sent');
  });
});
