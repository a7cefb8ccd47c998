// `npx tsx test/eval/thumbnail-faces.ts`: faces on thumbnails of people and of animals
// (docs/faces.md "Animal heads"). Rates, at full size and at a few longer sides (PNG copies made
// as thumbnail-copy.ts says; copies under intake's smallest side are left out):
//   - the people fixtures (test/fixtures/people, one or more real faces each): the faces analyze's
//     face search verifies, and how many of them the animal-head rule (rules/heads.ts) drops;
//   - the animal photographs among the face-free fixtures (test/fixtures/negatives, category
//     animal) and the close-up cat of test/fixtures/images: the faces found on them (all false),
//     before and after the rule.
// It prints the rule's margins: the largest animal probability the classifier gives an image of
// people with a close-up face, and the faces' confidences.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyWithFeatures } from '../../src-main/analysis';
import { detectFacesInImage } from '../../src-main/analysis/faces';
import { faceEvidenceFromResults, type FaceEvidence } from '../../src-main/analysis/people';
import { ANIMAL_HEAD_AS_FACE, animalHeadsNotFaces, animalProbability } from '../../src-main/analysis/rules';
import { HEAD_AS_ANIMAL } from '../../src-main/analysis/rules/heads';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';
import { intakeOptions } from '../../src-main/intake';
import { analyzeFaceOptions } from '../../src-main/services/analyze.service';
import { fixture, repoRoot } from '../helpers/paths';
import { createEngine, runnerOf } from '../main/analysis/fixtures';
import { negativeEntries, negativeLabel } from './fixture-labels';
import { thumbnailCopy } from './thumbnail-copy';

/** Longer sides of the thumbnails, px (0: the image as it is). */
const SIDES_PX = [0, 160, 128, 112, 96, 80] as const;
const MIN_SIDE_PX = intakeOptions('desktop').minSidePx;

const engine = createEngine();
const runner = runnerOf(engine);
const faceOptions = analyzeFaceOptions();
const decode = (path: string): Promise<RgbImage> => decodeImage(new Uint8Array(readFileSync(path)), { maxPixels: 100e6 });

const peopleDir = join(repoRoot, 'test/fixtures/people');
const people = readdirSync(peopleDir)
  .filter((n) => /\.(jpe?g|png)$/i.test(n))
  .sort()
  .map((n) => join(peopleDir, n));
const animals = [
  ...negativeEntries()
    .filter((e) => e.category === 'animal' && negativeLabel(e) === 'photo')
    .map((e) => join(repoRoot, 'test/fixtures/negatives', e.file)),
  fixture('cat_chelsea.jpg'),
];

interface Row {
  images: number;
  /** Images with at least one verified face, before and after the rule. */
  withFace: [number, number];
  faces: [number, number];
}
const rows = new Map<string, Row>();
const row = (key: string): Row => {
  let r = rows.get(key);
  if (!r) rows.set(key, (r = { images: 0, withFace: [0, 0], faces: [0, 0] }));
  return r;
};
/** The people images' largest animal probability where a face is a close-up, and the lowest face confidence. */
const margins = { peopleAnimal: 0, peopleAnimalAt: '', confidences: [] as number[] };
const animalFaces: string[] = [];

const isCloseUp = (f: FaceEvidence, img: RgbImage): boolean =>
  f.box.width * f.box.height >= HEAD_AS_ANIMAL.closeUpFace * img.width * img.height;

async function rate(kind: 'people' | 'animals', path: string, img: RgbImage, side: number): Promise<void> {
  const found = faceEvidenceFromResults(await detectFacesInImage(img, faceOptions, runner));
  const { classes } = await classifyWithFeatures(img, runner);
  const kept = animalHeadsNotFaces(found, classes, img.width, img.height);
  const r = row(`${kind} ${side ? `${side} px` : 'full size'}`);
  r.images++;
  r.withFace[0] += found.length ? 1 : 0;
  r.withFace[1] += kept.length ? 1 : 0;
  r.faces[0] += found.length;
  r.faces[1] += kept.length;
  const animal = animalProbability(classes);
  const name = `${path.split('/').pop()} at ${side || 'full size'}`;
  if (kind === 'people') {
    margins.confidences.push(...found.map((f) => f.confidence));
    if (found.some((f) => isCloseUp(f, img)) && animal > margins.peopleAnimal)
      Object.assign(margins, { peopleAnimal: animal, peopleAnimalAt: name });
  } else if (found.length) {
    const shown = found.map((f) => `confidence ${f.confidence.toFixed(2)}${isCloseUp(f, img) ? ', close-up' : ''}`).join('; ');
    animalFaces.push(`${name} (${img.width} × ${img.height}): animal ${animal.toFixed(2)}; ${shown}; after the rule ${kept.length}`);
  }
}

for (const [kind, paths] of [
  ['people', people],
  ['animals', animals],
] as const) {
  for (const [i, path] of paths.entries()) {
    if (i % 50 === 49) process.stderr.write(`${kind}: ${i + 1} of ${paths.length}\n`);
    const img = await decode(path);
    for (const side of SIDES_PX) {
      const copy = side ? await thumbnailCopy(img, side, 'png') : img;
      if (Math.min(copy.width, copy.height) >= MIN_SIDE_PX) await rate(kind, path, copy, side);
    }
  }
}

console.log('copy | images | with a face: found / after the rule | faces: found / after the rule');
for (const [key, r] of rows) console.log(`${key} | ${r.images} | ${r.withFace[0]} / ${r.withFace[1]} | ${r.faces[0]} / ${r.faces[1]}`);
const below = margins.confidences.filter((c) => c < ANIMAL_HEAD_AS_FACE.keepConfidence).length;
console.log(
  `\npeople: largest animal probability with a close-up face ${margins.peopleAnimal.toFixed(2)} (${margins.peopleAnimalAt}; rule ≥ ${ANIMAL_HEAD_AS_FACE.animalSum}); ` +
    `faces under keepConfidence ${ANIMAL_HEAD_AS_FACE.keepConfidence}: ${below} of ${margins.confidences.length}`,
);
console.log(`animals with a face found (${animalFaces.length}):`);
for (const line of animalFaces) console.log(`  ${line}`);
await engine.dispose();
