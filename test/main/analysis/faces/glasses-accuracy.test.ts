/**
 * Glasses on real faces (real models): the people crops (test/fixtures/people) labelled by eye
 * (ours, 2026-12-05): eyeglasses on three, sunglasses on nine, none on the rest. The pixel rules
 * (glasses.ts) were first fitted on the fixtures' 14 faces, one with glasses; on these faces their
 * bridge band, reaching up to the brows, called 33 of 170 bare faces "Eye" (docs/faces.md "Glasses").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFacesInImage, selectorPlan, type FaceResult } from '../../../../src-main/analysis/faces';
import type { PeopleManifestEntry } from '../../../fixtures/people/manifest-types';
import { repoRoot } from '../../../helpers/paths';
import { PEOPLE_GLASSES } from './attribute-levels';
import { openFaceStack, type FaceStack } from './fixture-eval';

const dir = join(repoRoot, 'test', 'fixtures', 'people');
let stack: FaceStack;
const found: { file: string; expected: 'None' | 'Eye' | 'Sun'; got: FaceResult['glasses'] }[] = [];

beforeAll(async () => {
  stack = openFaceStack(2);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as PeopleManifestEntry[];
  for (const e of manifest) {
    const { image } = await stack.loader.load(join(dir, e.file), undefined, { thumbnail: false });
    const faces = await detectFacesInImage(
      image,
      { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']), attributes: 'none' },
      stack.runner,
    );
    const b = e.face;
    const face = faces.find((f) => {
      const cx = f.box.left + f.box.width / 2;
      const cy = f.box.top + f.box.height / 2;
      return cx >= b.left && cx <= b.left + b.width && cy >= b.top && cy <= b.top + b.height;
    });
    if (face) found.push({ file: e.file, expected: PEOPLE_GLASSES[e.file] ?? 'None', got: face.glasses });
  }
}, 300_000);
afterAll(async () => stack?.close());

describe('glasses on labelled faces (real models)', () => {
  it('calls at most 10 % of the bare faces "Eye" and none of them "Sun"', () => {
    const bare = found.filter((f) => f.expected === 'None');
    expect(bare.length).toBeGreaterThanOrEqual(150);
    const eye = bare.filter((f) => f.got === 'Eye').map((f) => f.file);
    expect(eye.length / bare.length, eye.join(', ')).toBeLessThanOrEqual(0.1);
    expect(bare.filter((f) => f.got === 'Sun')).toEqual([]);
  });

  it('finds the eyeglasses, and calls most sunglasses "Sun"', () => {
    const eye = found.filter((f) => f.expected === 'Eye');
    expect(eye.length).toBe(3);
    expect(eye.filter((f) => f.got === 'Eye').map((f) => f.file)).toEqual(eye.map((f) => f.file));
    const sun = found.filter((f) => f.expected === 'Sun');
    expect(sun.length).toBeGreaterThanOrEqual(6);
    expect(sun.filter((f) => f.got === 'Sun').length).toBeGreaterThanOrEqual(sun.length - 2);
  });
});
