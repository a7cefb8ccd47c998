// A human head is not an animal (rules/heads.ts). On tight face crops CenterNet boxed the head as a
// cat and the classifier named a dog breed or a primate: "a man with a cat". Real models on the
// people crops; the geometry on boxes.
import { afterAll, describe, expect, it } from 'vitest';
import { HEAD_AS_ANIMAL, isHeadReadAsAnimal } from '../../../../src-main/analysis/rules/heads';
import { fixture, repoRoot } from '../../../helpers/paths';
import { openDescriber } from './describer';

const ANIMAL_WORDS = ['animal', 'mammal', 'cat', 'dog', 'primate', 'monkey'];

describe('a face read as an animal (real models)', () => {
  const { described, close } = openDescriber();
  afterAll(close);

  it.each(['46-human-27.jpg', '46-human-65.jpg', '46-human-73.jpg'])(
    '%s: a person, no animal',
    async (file) => {
      const { caption, tags, faces } = await described(`${repoRoot}/test/fixtures/people/${file}`);
      expect(faces).toHaveLength(1);
      expect(caption).not.toMatch(/cat|dog|animal|monkey/);
      for (const w of ANIMAL_WORDS) expect(tags.get(w) ?? 0, w).toBeLessThan(0.5);
    },
    60_000,
  );

  it('a cat without a face stays a cat', async () => {
    const { caption, tags } = await described(fixture('cat_chelsea.jpg'));
    expect(caption).toMatch(/cat/);
    expect(tags.get('cat') ?? 0).toBeGreaterThanOrEqual(0.5);
  }, 60_000);
});

describe('isHeadReadAsAnimal', () => {
  const face = (left: number, top: number, side: number) => ({ box: { left, top, width: side, height: side } }) as never;
  const animal = (label: 'cat' | 'horse' | 'chair', left: number, top: number, width: number, height: number) => ({
    label,
    score: 0.4,
    box: { left, top, width, height },
  });

  it('an animal box around a face that is a good part of it is the head', () => {
    expect(isHeadReadAsAnimal(animal('cat', 0, 10, 100, 110), [face(30, 30, 65)])).toBe(true);
  });

  it('keeps an animal whose box holds only a small face (a rider on a horse), or misses the face', () => {
    const side = Math.floor(Math.sqrt(HEAD_AS_ANIMAL.faceOfBox * 400 * 300)) - 5;
    expect(isHeadReadAsAnimal(animal('horse', 0, 0, 400, 300), [face(100, 20, side)])).toBe(false);
    expect(isHeadReadAsAnimal(animal('cat', 200, 200, 100, 100), [face(30, 30, 65)])).toBe(false);
    expect(isHeadReadAsAnimal(animal('chair', 0, 10, 100, 110), [face(30, 30, 65)])).toBe(false);
  });
});
