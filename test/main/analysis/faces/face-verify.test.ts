/**
 * The verification rule and the confidence formula (face-verify.ts) as pure functions; the
 * thresholds themselves are checked on real images in negatives.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { descriptorSpread, faceConfidence, FACE_VERIFY_RULES, verifyFace } from '../../../../src-main/analysis/faces/face-verify';

describe('descriptorSpread', () => {
  it('is 1 for one active channel, √n for n equal channels, 0 for nothing', () => {
    const one = new Float32Array(1024);
    one[7] = 3;
    expect(descriptorSpread(one)).toBeCloseTo(1, 6);
    const even = new Float32Array(1024).fill(0);
    even.fill(0.5, 0, 256);
    expect(descriptorSpread(even)).toBeCloseTo(16, 4);
    expect(descriptorSpread(new Float32Array(1024))).toBe(0);
  });

  it('does not depend on the descriptor scale', () => {
    const d = Float32Array.from({ length: 1024 }, (_, i) => (i % 5 === 0 ? (i % 17) / 17 : 0));
    expect(descriptorSpread(d.map((v) => v * 40))).toBeCloseTo(descriptorSpread(d), 4);
  });
});

describe('verifyFace', () => {
  const strong = { detectorScore: 0.95, faceFlag: 1, descriptorSpread: 17 };

  it('rejects below the spread threshold and accepts at it', () => {
    const min = FACE_VERIFY_RULES.minDescriptorSpread;
    expect(verifyFace({ ...strong, descriptorSpread: min - 0.01 }).accepted).toBe(false);
    expect(verifyFace({ ...strong, descriptorSpread: min }).accepted).toBe(true);
  });

  it('has a lower bar with PARTIAL (covered lower faces light fewer channels)', () => {
    const { partialMinDescriptorSpread: p, minDescriptorSpread: min } = FACE_VERIFY_RULES;
    expect(p).toBeLessThan(min);
    expect(verifyFace({ ...strong, descriptorSpread: p }, true).accepted).toBe(true);
    expect(verifyFace({ ...strong, descriptorSpread: p }, false).accepted).toBe(false);
    expect(verifyFace({ ...strong, descriptorSpread: p - 0.01 }, true).accepted).toBe(false);
  });

  it('gives a face all three witnesses agree on ≥ 0.9, and caps one the descriptor doubts at 2/3', () => {
    expect(faceConfidence(strong)).toBeGreaterThanOrEqual(0.9);
    // The false faces users saw scored 0.71–0.87 as mean(detector, flag); with a weak descriptor
    // the same detector and flag give at most 2/3.
    expect(
      faceConfidence({ detectorScore: 0.74, faceFlag: 1, descriptorSpread: FACE_VERIFY_RULES.minDescriptorSpread }),
    ).toBeLessThanOrEqual(2 / 3);
    expect(faceConfidence({ detectorScore: 1, faceFlag: 1, descriptorSpread: 0 })).toBeCloseTo(2 / 3, 6);
  });

  it('rises with the descriptor spread up to fullDescriptorSpread', () => {
    const { minDescriptorSpread: lo, fullDescriptorSpread: hi } = FACE_VERIFY_RULES;
    const at = (s: number): number => faceConfidence({ ...strong, descriptorSpread: s });
    expect(at(lo)).toBeLessThan(at((lo + hi) / 2));
    expect(at((lo + hi) / 2)).toBeLessThan(at(hi));
    expect(at(hi)).toBeCloseTo(at(hi + 5), 9);
  });
});
