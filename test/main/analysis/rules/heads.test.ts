// A human head is not an animal (rules/heads.ts). On tight face crops CenterNet boxed the head as a
// cat and the classifier named a dog breed or a primate: "a man with a cat". Nor is an animal's
// head a face: on thumbnails of a close-up cat the face search verified its head, "a man wearing
// glasses". Real models on the people crops and on thumbnails; the rules' geometry on boxes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGENET_HIERARCHY } from '../../../../src-main/analysis/classifier';
import type { FaceEvidence } from '../../../../src-main/analysis/people';
import { ANIMAL_HEAD_AS_FACE, animalHeadsNotFaces, HEAD_AS_ANIMAL, isHeadReadAsAnimal } from '../../../../src-main/analysis/rules/heads';
import { fixture, repoRoot } from '../../../helpers/paths';
import { PEOPLE_READ_AS_ANIMALS, writeThumbnail } from '../../../helpers/thumbnail-file';
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

describe("an animal's head is no face (real models on thumbnails)", () => {
  const { described, close } = openDescriber();
  const dir = mkdtempSync(join(tmpdir(), 'picscan-heads-'));
  afterAll(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });
  const thumbnail = (source: string, side: number): Promise<string> => writeThumbnail(source, side, dir);

  // At 112 and 96 px the face search verifies the cat's head (confidence 0.62–0.63).
  it.each([112, 96])(
    'the close-up cat at %i px is a cat with no face',
    async (side) => {
      const { caption, tags, faces } = await described(await thumbnail(fixture('cat_chelsea.jpg'), side));
      expect(faces).toHaveLength(0);
      expect(caption).toMatch(/\bcat\b/);
      expect(tags.get('cat') ?? 0).toBeGreaterThanOrEqual(0.5);
    },
    60_000,
  );

  // Faces alone run no classifier for the tags; it runs for the unsure close-up face.
  it('the close-up cat at 112 px has no face when Faces alone is asked for', async () => {
    const { faces } = await described(await thumbnail(fixture('cat_chelsea.jpg'), 112), ['Faces']);
    expect(faces).toHaveLength(0);
  }, 60_000);

  it.each(PEOPLE_READ_AS_ANIMALS)(
    '%s at %i px keeps its face',
    async (file, side) => {
      const { caption, faces } = await described(await thumbnail(`${repoRoot}/test/fixtures/people/${file}`, side));
      expect(faces).toHaveLength(1);
      expect(caption).toMatch(/\b(man|person)\b/);
    },
    60_000,
  );
});

describe('animalHeadsNotFaces', () => {
  const catClass = IMAGENET_HIERARCHY.classes.findIndex((c) => c.name === 'tabby');
  const face = (side: number, confidence: number): FaceEvidence =>
    ({ box: { left: 10, top: 10, width: side, height: side }, confidence }) as FaceEvidence;
  const closeUpSide = Math.ceil(Math.sqrt(HEAD_AS_ANIMAL.closeUpFace * 100 * 100));
  const unsure = ANIMAL_HEAD_AS_FACE.keepConfidence - 0.05;

  it('drops an unsure close-up face where the classifier is sure of an animal', () => {
    const classes = [{ index: catClass, p: ANIMAL_HEAD_AS_FACE.animalSum + 0.05 }];
    expect(IMAGENET_HIERARCHY.classes[catClass]!.tags).toContain('animal');
    expect(animalHeadsNotFaces([face(closeUpSide, unsure)], classes, 100, 100)).toEqual([]);
  });

  it('keeps a sure face, a small face, and every face where the classifier is not sure of an animal or did not run', () => {
    const sure = [{ index: catClass, p: ANIMAL_HEAD_AS_FACE.animalSum + 0.05 }];
    const notSure = [{ index: catClass, p: ANIMAL_HEAD_AS_FACE.animalSum - 0.05 }];
    const confident = face(closeUpSide, ANIMAL_HEAD_AS_FACE.keepConfidence);
    const small = face(closeUpSide - 4, unsure);
    expect(animalHeadsNotFaces([confident, small], sure, 100, 100)).toEqual([confident, small]);
    expect(animalHeadsNotFaces([face(closeUpSide, unsure)], notSure, 100, 100)).toHaveLength(1);
    expect(animalHeadsNotFaces([face(closeUpSide, unsure)], undefined, 100, 100)).toHaveLength(1);
  });
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
