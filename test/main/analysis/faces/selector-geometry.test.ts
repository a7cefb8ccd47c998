import { describe, expect, it } from 'vitest';
import { selectorPlan } from '../../../../src-main/analysis/faces';
import { headPose, keyPoints, mouthOpening, type Point3 } from '../../../../src-main/analysis/faces/mesh-geometry';
import { combineAttributes, GENDER_FUSION } from '../../../../src-main/analysis/faces/attributes';
import { faceQuality } from '../../../../src-main/analysis/faces/quality';
import { classifyGlasses } from '../../../../src-main/analysis/faces/glasses';

describe('selectorPlan', () => {
  it('defaults to FRONTAL; ROLL and PARTIAL keep its yaw range, FULL widens it', () => {
    expect(selectorPlan([])).toMatchObject({ selectors: ['FRONTAL'], maxAbsYawDeg: 30, roll: false, partial: false });
    expect(selectorPlan(['FULL'])).toMatchObject({ selectors: ['FULL'], maxAbsYawDeg: 100 });
    expect(selectorPlan(['FRONTAL', 'ROLL', 'ROLL'])).toMatchObject({ selectors: ['FRONTAL', 'ROLL'], maxAbsYawDeg: 30, roll: true });
    expect(selectorPlan(['ROLL'])).toMatchObject({ maxAbsYawDeg: 30, roll: true });
    expect(selectorPlan(['FULL', 'PARTIAL'])).toMatchObject({ maxAbsYawDeg: 100, partial: true });
  });
});

// A minimal "mesh": only the indices the geometry reads, on a frontal face 100 px wide, rotated
// by yaw (about the vertical axis) and then roll (in the image plane).
function syntheticMesh(yawDeg: number, rollDeg: number, mouthGap = 0): Point3[] {
  const mesh: Point3[] = Array.from({ length: 468 }, () => [0, 0, 0] as Point3);
  const set = (i: number, x: number, y: number, z: number): void => {
    const ya = (yawDeg * Math.PI) / 180;
    const ra = (rollDeg * Math.PI) / 180;
    // Yaw > 0 turns the face towards the viewer's right: the nose (z < 0) moves to +x.
    const x1 = x * Math.cos(ya) - z * Math.sin(ya);
    const z1 = x * Math.sin(ya) + z * Math.cos(ya);
    mesh[i] = [200 + x1 * Math.cos(ra) - y * Math.sin(ra), 200 + x1 * Math.sin(ra) + y * Math.cos(ra), z1];
  };
  set(234, -50, 0, 0);
  set(454, 50, 0, 0);
  set(10, 0, -60, -10);
  set(152, 0, 60, -10);
  set(13, 0, 30, -20);
  set(14, 0, 30 + mouthGap, -20);
  for (const i of [33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173]) set(i, -25, -10, -15);
  for (const i of [263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398]) set(i, 25, -10, -15);
  return mesh;
}

describe('mesh geometry', () => {
  it('recovers yaw and roll with the documented signs', () => {
    for (const [yaw, roll] of [
      [0, 0],
      [25, 0],
      [-40, 10],
      [10, -30],
    ] as const) {
      const p = headPose(syntheticMesh(yaw, roll));
      expect(p.yaw).toBeCloseTo(yaw, 0);
      expect(p.roll).toBeCloseTo(roll, 0);
      expect(Math.abs(p.pitch)).toBeLessThan(1);
    }
  });

  it('puts the subject’s left eye on the viewer’s right of an upright face', () => {
    const k = keyPoints(syntheticMesh(0, 0));
    expect(k.leftEye[0]).toBeGreaterThan(k.rightEye[0]);
    expect(k.chin).toEqual([200, 260]);
  });

  it('measures the mouth opening relative to face height', () => {
    expect(mouthOpening(syntheticMesh(0, 0))).toBe(0);
    expect(mouthOpening(syntheticMesh(0, 0, 6))).toBeCloseTo(6 / 120, 6);
  });
});

describe('attributes, quality, glasses', () => {
  it('weighs the gender log-odds by the fitted fusion, maps UTKFace races to Kairos shares summing to 1', () => {
    const outputs = {
      faceresMale: 0.9,
      faceresAge: Float32Array.from({ length: 100 }, (_, i) => (i === 40 ? 1 : 0)),
      gearGender: [0.1, 0.9],
      gearAge: [0, 0, 0, 0, 1, 0, 0],
      gearRace: [0.5, 0.1, 0.1, 0.1, 0.2],
      emotion: [0, 0, 0, 1, 0, 0, 0],
    };
    const a = combineAttributes(outputs);
    const logit = (p: number) => Math.log(p / (1 - p));
    const f = GENDER_FUSION;
    expect(a.male).toBeCloseTo(1 / (1 + Math.exp(-(f.faceres * logit(0.9) + f.gear * logit(0.1) + f.bias))), 6);
    // gear's lean towards male does not outvote a faceres that is sure of a woman, …
    const woman = combineAttributes({ ...outputs, faceresMale: 0.1, gearGender: [0.95, 0.05] });
    expect(woman.male).toBeLessThan(0.3);
    // … and two sure models agree; a saturated model is clipped (±GENDER_LOGIT_CLIP), not a veto.
    expect(combineAttributes({ ...outputs, faceresMale: 0.95, gearGender: [0.99, 0.01] }).male).toBeGreaterThan(0.95);
    expect(combineAttributes({ ...outputs, faceresMale: 0.999999, gearGender: [0, 1] }).male).toBeLessThan(1);
    expect(a.ageYears).toBeCloseTo((40 + 45.5) / 2, 6);
    expect(a.ethnicity).toEqual({ asian: 0.2, hispanic: 0.1, black: 0.1, white: 0.5, other: 0.1 });
    expect(a.emotions.happy).toBe(1);
  });

  it('quality is 1 for a large, sharp, frontal, certain face and drops with each term', () => {
    const best = { sidePx: 200, sharpness: 30, yawDeg: 0, pitchDeg: 0, confidence: 1 };
    expect(faceQuality(best)).toBe(1);
    expect(faceQuality({ ...best, sidePx: 16 })).toBeCloseTo(0.75, 6);
    expect(faceQuality({ ...best, yawDeg: 90 })).toBeCloseTo(0.75, 6);
  });

  it('glasses: dark flat eyes are Sun, a strong bridge line on a frontal face is Eye', () => {
    const bare = { eyeDarkness: 0.8, eyeStd: 40, bridgeEdges: 1, rimEdges: 3, templeEdges: 1 };
    expect(classifyGlasses({ ...bare, eyeDarkness: 0.3, eyeStd: 10 })).toBe('Sun');
    expect(classifyGlasses({ ...bare, bridgeEdges: 3.5 })).toBe('Eye');
    expect(classifyGlasses({ ...bare, bridgeEdges: 3.5 }, 45)).toBe('None');
    expect(classifyGlasses(bare)).toBe('None');
  });
});
