/**
 * Gender on real faces (real models): the people crops of known gender (named persons, and the
 * unnamed crops labelled by eye, `VISUAL_GENDER`) at both attribute levels, and the fixtures'
 * named persons. gear leans towards male; before the fitted fusion (`GENDER_FUSION`) the mean of
 * the two models' log-odds called 28 of the labelled women men (full level: 126 of 152 right).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareLevels, summarizeLevels, type LevelPair } from './attribute-levels';
import { openFaceStack, type FaceStack } from './fixture-eval';

let stack: FaceStack;
let pairs: { fixtures: LevelPair[]; people: LevelPair[] };

beforeAll(async () => {
  stack = openFaceStack(2);
  pairs = await compareLevels(stack.runner, stack.loader);
}, 300_000);
afterAll(async () => stack?.close());

describe('gender on labelled faces (real models)', () => {
  it('is right on at least 90 % of the labelled people crops, women and men alike, at both levels', () => {
    const s = summarizeLevels(pairs.people);
    expect(s.labelled).toBeGreaterThanOrEqual(140);
    expect(s.fullRight / s.labelled).toBeGreaterThanOrEqual(0.9);
    expect(s.summaryRight / s.labelled).toBeGreaterThanOrEqual(0.9);
    for (const g of ['F', 'M'] as const) {
      const found = pairs.people.filter((p) => p.gender === g && p.full);
      const right = found.filter((p) => p.full!.male >= 0.5 === (g === 'M'));
      expect(right.length / found.length, `${g}: ${right.length} of ${found.length}`).toBeGreaterThanOrEqual(0.85);
    }
  });

  it("keeps every fixture's named person right at both levels", () => {
    const s = summarizeLevels(pairs.fixtures);
    expect(s.labelled).toBeGreaterThanOrEqual(7);
    expect(s.fullRight).toBe(s.labelled);
  });
});
