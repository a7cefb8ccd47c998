/**
 * No face on face-free images (test/fixtures/negatives: animals, text pages, charts, cartoons,
 * masks, food, patterns) with either selector, on the real models; real faces keep a high
 * calibrated confidence (docs/faces.md, "Verification").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, evaluateNegatives, openFaceStack, type EvalSummary, type FaceStack, type NegativeEval } from './fixture-eval';

let stack: FaceStack;
let frontal: NegativeEval[];
let full: NegativeEval[];
let fixturesFull: EvalSummary;

beforeAll(async () => {
  stack = openFaceStack(2);
  frontal = await evaluateNegatives(stack.service);
  full = await evaluateNegatives(stack.service, { selector: 'FULL' });
  fixturesFull = await evaluate(stack.service, { selector: 'FULL' });
}, 600_000);
afterAll(async () => stack?.close());

const withFaces = (r: NegativeEval[]): string[] => r.filter((i) => i.faces > 0).map((i) => `${i.file} (${i.confidences.join(', ')})`);

describe('negative images (real models)', () => {
  it('covers at least 60 images of every category the brief names', () => {
    expect(full.length).toBeGreaterThanOrEqual(60);
    for (const c of ['animal', 'text-printed', 'text-handwritten', 'chart', 'cartoon', 'statue-mask', 'food', 'pattern']) {
      expect(full.filter((i) => i.category === c).length, c).toBeGreaterThanOrEqual(4);
    }
  });

  it('FRONTAL finds no face on any of them (Kairos error 5002 everywhere)', () => {
    expect(withFaces(frontal)).toEqual([]);
    for (const i of frontal) expect(i.errCode, i.file).toBe(5002);
  });

  it('FULL finds no face on any of them', () => {
    expect(withFaces(full)).toEqual([]);
  });

  it('real faces on the fixtures keep a high confidence (≥ 0.8, median ≥ 0.9)', () => {
    const conf = fixturesFull.images.flatMap((i) => i.confidences).sort((a, b) => a - b);
    expect(conf.length).toBeGreaterThanOrEqual(14);
    expect(conf[0]).toBeGreaterThanOrEqual(0.8);
    expect(conf[conf.length >> 1]).toBeGreaterThanOrEqual(0.9);
  });
});
