/** The contract's parameter schemas: the values each transport accepts, and the error code of each problem. */
import { describe, expect, it } from 'vitest';
import { wireMapping } from '../../../src-main/shared/api-errors';
import {
  analyzeOptionsSchema,
  analyzeParamsSchema,
  checkRequest,
  detectParamsSchema,
  parseParams,
  thumbnailParamsSchema,
} from '../../../src-main/shared/contract';

const image = 'https://example.com/a.jpg';
const value = <T>(r: { ok: true; value: T } | { ok: false }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.value;
};
const codeOf = (r: { ok: true } | { ok: false; error: { code: string } }): string | undefined => (r.ok ? undefined : r.error.code);

describe('analyze features and details', () => {
  it('options: omitted → all (undefined), given → exactly those in any case, empty → none', () => {
    expect(value(parseParams(analyzeOptionsSchema, {}))).toEqual({});
    expect(value(parseParams(analyzeOptionsSchema, { features: 'tags, COLOR' })).features).toEqual(['Tags', 'Color']);
    expect(value(parseParams(analyzeOptionsSchema, { features: ['Adult', 'faces'] })).features).toEqual(['Adult', 'Faces']);
    expect(value(parseParams(analyzeOptionsSchema, { features: '', details: '' }))).toEqual({ features: [], details: [] });
    expect(value(parseParams(analyzeOptionsSchema, { details: 'celebrities' })).details).toEqual(['Celebrities']);
  });

  it('merges the `feature` spelling with `features`', () => {
    expect(value(parseParams(analyzeOptionsSchema, { feature: 'Description' })).features).toEqual(['Description']);
    expect(value(parseParams(analyzeOptionsSchema, { features: 'Tags', feature: 'tags,Color' })).features).toEqual(['Tags', 'Color']);
  });

  it("understands Azure's `visualFeatures` as a third spelling, merged with the others, refused like them", () => {
    expect(value(parseParams(analyzeParamsSchema, { image, visualFeatures: 'Tags,description' })).features).toEqual([
      'Tags',
      'Description',
    ]);
    expect(value(parseParams(analyzeParamsSchema, { image, visualFeatures: ['Color'], features: 'Tags' })).features).toEqual([
      'Tags',
      'Color',
    ]);
    expect(codeOf(parseParams(analyzeParamsSchema, { image, visualFeatures: 'Tags,Brands' }))).toBe('unsupported-feature');
  });

  it('API parameters: an empty list is as if omitted', () => {
    expect(value(parseParams(analyzeParamsSchema, { image, features: '', details: '' }))).toEqual({ image });
  });

  it('refuses unknown values with their Azure-mapped codes', () => {
    expect(codeOf(parseParams(analyzeOptionsSchema, { features: 'Tags,Objects' }))).toBe('unsupported-feature');
    expect(codeOf(parseParams(analyzeParamsSchema, { image, feature: 'Nope' }))).toBe('unsupported-feature');
    expect(codeOf(parseParams(analyzeOptionsSchema, { details: 'Landmarks,Brands' }))).toBe('invalid-details');
    expect(codeOf(parseParams(analyzeOptionsSchema, { features: [3] }))).toBe('invalid-parameter');
    expect(wireMapping('unsupported-feature').azure).toBe('NotSupportedVisualFeature');
  });

  it('language: English (any case) or nothing; another language is NotSupportedLanguage, not answered in English', () => {
    for (const language of ['en', 'EN', ' en ', '', null, undefined])
      expect(value(parseParams(analyzeParamsSchema, { image, language }))).toEqual({ image });
    expect(codeOf(parseParams(analyzeParamsSchema, { image, language: 'es' }))).toBe('unsupported-language');
    expect(codeOf(parseParams(analyzeParamsSchema, { image, language: 'en-US' }))).toBe('unsupported-language');
    expect(codeOf(parseParams(analyzeParamsSchema, { image, language: ['en', 'es'] }))).toBe('invalid-parameter');
    expect(wireMapping('unsupported-language')).toMatchObject({ status: 400, azure: 'NotSupportedLanguage' });
  });
});

describe('image', () => {
  it('is required, a string, no data URL or Base64; a `url` gets a hint', () => {
    const missing = parseParams(analyzeParamsSchema, { url: image });
    expect(missing).toMatchObject({ ok: false, error: { code: 'missing-parameter', message: expect.stringMatching(/not `url`/) } });
    expect(codeOf(parseParams(detectParamsSchema, { image: '' }))).toBe('missing-parameter');
    expect(codeOf(parseParams(detectParamsSchema, { image: null }))).toBe('missing-parameter');
    expect(codeOf(parseParams(detectParamsSchema, { image: 7 }))).toBe('invalid-parameter');
    expect(codeOf(parseParams(detectParamsSchema, { image: 'data:image/png;base64,AAAA' }))).toBe('invalid-image-url');
    expect(codeOf(parseParams(detectParamsSchema, { image: 'A'.repeat(80) }))).toBe('invalid-image-url');
    expect(value(parseParams(detectParamsSchema, { image: `  ${image} ` })).image).toBe(image);
  });
});

describe('detect minHeadScale and selector', () => {
  it('defaults to 0.015 and FRONTAL; accepts numbers or numeric strings, selectors in any case', () => {
    expect(value(parseParams(detectParamsSchema, { image }))).toEqual({ image, minHeadScale: 0.015, selector: ['FRONTAL'] });
    expect(value(parseParams(detectParamsSchema, { image, minHeadScale: '0.1', selector: 'full, partial' }))).toMatchObject({
      minHeadScale: 0.1,
      selector: ['FULL', 'PARTIAL'],
    });
    expect(value(parseParams(detectParamsSchema, { image, minHeadScale: 0.5, selector: ['frontal', 'roll'] })).selector).toEqual([
      'FRONTAL',
      'ROLL',
    ]);
  });

  it('refuses out-of-range scales, non-numbers, unknown selectors and wrong types (Kairos 1003)', () => {
    for (const bad of [
      { minHeadScale: 0.01 },
      { minHeadScale: 0.6 },
      { minHeadScale: 'abc' },
      { minHeadScale: ' ' },
      { minHeadScale: Number.NaN },
      { minHeadScale: {} },
      { minHeadScale: true },
      { selector: 'SIDEWAYS' },
      { selector: ['frontal', 3] },
      { selector: 7 },
    ]) {
      const r = parseParams(detectParamsSchema, { image, ...bad });
      expect(codeOf(r), JSON.stringify(bad)).toBe('invalid-parameter');
      expect(wireMapping('invalid-parameter').kairos).toBe(1003);
    }
    expect(wireMapping('missing-parameter').kairos).toBe(1002);
  });

  it('names a number JSON cannot hold as such, not as null (a body of {"minHeadScale": 1e999} parses as Infinity)', () => {
    for (const [sent, shown] of [
      [JSON.parse('1e999') as number, 'got Infinity'],
      [-Infinity, 'got -Infinity'],
      [Number.NaN, 'got NaN'],
    ] as const) {
      const r = parseParams(detectParamsSchema, { image, minHeadScale: sent });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toContain(shown);
    }
  });
});

describe('thumbnail sizes', () => {
  it('takes integers 1..1024 as numbers or text; missing and bad values have their own codes', () => {
    expect(value(parseParams(thumbnailParamsSchema, { image, width: '64', height: 48, smartCropping: 'TRUE' }))).toEqual({
      image,
      width: 64,
      height: 48,
      smartCropping: true,
    });
    expect(codeOf(parseParams(thumbnailParamsSchema, { image, height: 5 }))).toBe('missing-parameter');
    expect(codeOf(parseParams(thumbnailParamsSchema, { image, width: 0, height: 5 }))).toBe('invalid-parameter');
    expect(codeOf(parseParams(thumbnailParamsSchema, { image, width: 5, height: 5, smartCropping: 'yes' }))).toBe('invalid-parameter');
  });
});

describe('UI channels', () => {
  const options = { name: 'b', operation: { kind: 'analyze', features: ['Tags'], details: [] }, backend: { kind: 'local' } };
  it('bounds the concurrency once: downloads 1..256, analyses 1..64', () => {
    expect(checkRequest('settings:update', { downloadConcurrency: 256, analysisConcurrency: 64 }).ok).toBe(true);
    expect(checkRequest('settings:update', { analysisConcurrency: 65 })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', message: expect.stringMatching(/^Invalid settings:update request \(analysisConcurrency/) },
    });
    const create = (o: object) => checkRequest('batches:create', { list: { text: '', format: 'txt' }, options: { ...options, ...o } });
    expect(create({ analysisConcurrency: 64 }).ok).toBe(true);
    expect(create({ analysisConcurrency: 65 }).ok).toBe(false);
    expect(create({ downloadConcurrency: 257 }).ok).toBe(false);
    expect(create({ operation: { kind: 'analyze', features: [], details: [] } }).ok).toBe(false);
  });

  it('takes no list folder from a client (relative paths are read from one only by picscan batch)', () => {
    const list = { text: 'a.jpg', format: 'txt', baseDir: '/etc' };
    expect(checkRequest('batches:create', { list, options })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('checks gallery input', () => {
    expect(checkRequest('galleries:add', { kind: 'person', name: 'A', images: ['/a.jpg'] }).ok).toBe(true);
    expect(checkRequest('galleries:add', { kind: 'place', name: 'A', images: ['/a.jpg'], latitude: 91, longitude: 0 }).ok).toBe(false);
    expect(checkRequest('galleries:add', { kind: 'person', name: ' ', images: ['/a.jpg'] }).ok).toBe(false);
  });
});
