import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../../src-main/analysis';
import { band, BANDS } from '../../../../src-main/analysis/rules/bands';
import { derive } from '../../../../src-main/analysis/rules/derive';
import { productText, scoreProduct, type Product } from '../../../../src-main/analysis/rules/score';
import { plainEvidence } from '../../../helpers/evidence';

const score = (p: Product, e: Evidence = plainEvidence()): number => scoreProduct(p, e, derive(e));
const withScene = (scene: Partial<Evidence['scene']>): Evidence => {
  const e = plainEvidence();
  return { ...e, scene: { ...e.scene, ...scene } };
};
const dog = (score: number): Evidence => ({
  ...plainEvidence(),
  objects: [{ label: 'dog', score, box: { left: 0, top: 0, width: 50, height: 50 } }],
});

describe('rule products (score.ts)', () => {
  it('ramps a band from its first number to its second, clamped to 0..1', () => {
    const { from, to } = BANDS['vegetation.green'];
    expect(score(['vegetation.green'], withScene({ vegetation: from }))).toBe(0);
    expect(score(['vegetation.green'], withScene({ vegetation: (from + to) / 2 }))).toBeCloseTo(0.5, 12);
    expect(score(['vegetation.green'], withScene({ vegetation: 1 }))).toBe(1);
    // A descending band: the paler, the higher.
    expect(band('chromaP50.pale', 0)).toBe(1);
    expect(band('chromaP50.pale', 40)).toBe(0);
  });

  it('multiplies quantities, bands and weights left to right', () => {
    const e = withScene({ vegetation: 0.25 });
    expect(score(['photo', 'vegetation.green', 0.5], e)).toBe(1 * band('vegetation.green', 0.25) * 0.5);
  });

  it('gates on named tests: `when` with then/else, `first` picks the first test that holds', () => {
    expect(score([{ when: 'people.none', then: 0.7 }])).toBe(0.7);
    expect(score([{ when: 'people.any', then: 0.7 }])).toBe(0);
    expect(score([{ when: 'people.any', then: 0.7, else: 0.2 }])).toBe(0.2);
    expect(score([{ when: { any: ['people.any', 'people.none'] } }])).toBe(1);
    expect(score([{ when: { all: ['people.any', 'people.none'] } }])).toBe(0);
    expect(
      score([
        {
          first: [
            ['people.any', 0.9],
            ['people.none', 0.4],
          ],
          else: 0.1,
        },
      ]),
    ).toBe(0.4);
    expect(score([{ first: [['people.any', 0.9]], else: 0.1 }])).toBe(0.1);
  });

  it('reads detected labels and label groups, and combines products by max, min and sum', () => {
    const e = dog(0.7);
    const conf = derive(e).labels.get('dog')!;
    expect(conf).toBeGreaterThan(0.5);
    expect(score(['label:dog'], e)).toBe(conf);
    expect(score(['label:cat'], e)).toBe(0);
    expect(score(['any:animals'], e)).toBe(conf);
    expect(score(['any:vehicles'], e)).toBe(0);
    expect(score([{ max: [['label:dog', 0.5], [0.4]] }], e)).toBe(Math.max(conf * 0.5, 0.4));
    expect(score([{ min: [['label:dog'], [0.4]] }], e)).toBe(0.4);
    expect(score([{ sum: [['label:dog'], [0.1]] }], e)).toBe(conf + 0.1);
  });

  it('renders a product for the docs', () => {
    expect(productText(['photo', 'vegetation.green', { when: 'sky.little', then: 0.7 }, { max: [['label:dog'], [0.5, 'outdoor']] }])).toBe(
      'photo × vegetation.green × (sky.little ? 0.7 : 0) × max(label:dog, 0.5 × outdoor)',
    );
  });
});
