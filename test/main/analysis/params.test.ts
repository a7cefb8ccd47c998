import { describe, expect, it } from 'vitest';
import { featuresParam, parseDetails, parseFeatures } from '../../../src-main/analysis';
import { AppError } from '../../../src-main/core';
import { VISUAL_FEATURES } from '../../../src-main/shared/spec';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (err) {
    return err instanceof AppError ? err.code : 'not-app-error';
  }
  return undefined;
};

describe('features and details parameters', () => {
  it('turns every feature on when omitted and exactly the given ones otherwise', () => {
    expect([...parseFeatures(undefined)]).toEqual([...VISUAL_FEATURES]);
    expect([...parseFeatures('tags, COLOR')].sort()).toEqual(['Color', 'Tags']);
    expect([...parseFeatures(['Adult', 'faces'])].sort()).toEqual(['Adult', 'Faces']);
    expect(parseFeatures('').size).toBe(0);
  });

  it('accepts the `feature` spelling and refuses two different lists', () => {
    expect([...parseFeatures(featuresParam(undefined, 'Description'))]).toEqual(['Description']);
    expect(codeOf(() => featuresParam('Tags', 'Color'))).toBe('invalid-parameter');
    expect([...parseFeatures(featuresParam('Tags', 'tags'))]).toEqual(['Tags']);
  });

  it('rejects unknown features and details with their Azure-mapped codes', () => {
    expect(codeOf(() => parseFeatures('Tags,Objects'))).toBe('unsupported-feature');
    expect(codeOf(() => parseDetails('Landmarks,Brands'))).toBe('invalid-details');
    expect([...parseDetails(undefined)].sort()).toEqual(['Celebrities', 'Landmarks']);
    expect([...parseDetails('celebrities')]).toEqual(['Celebrities']);
  });
});
