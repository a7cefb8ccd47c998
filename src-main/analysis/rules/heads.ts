/**
 * A human head is not an animal. On a close-up face CenterNet boxes the head as a cat or a dog
 * (raw 0.30–0.40 on face crops, the box around the whole head) and the classifier, which has no
 * class for a human face, names a dog breed or a primate; the captions said "a man with a cat".
 * A face the face search verified (faceres' descriptor, face-verify.ts) outweighs them.
 *
 * Nor is an animal's head a human face: where the classifier is sure of an animal and the face
 * search only just verified a close-up face, the face is the animal's head (ANIMAL_HEAD_AS_FACE).
 */
import { intersectionArea } from '../../inference/tensor';
import type { Evidence } from '../evidence';
import { IMAGENET_HIERARCHY, type ClassScore } from '../classifier';
import type { DetectedObject } from '../objects/types';
import { ANIMALS } from './vocab';

/** When an animal reading is the face's own head. */
export const HEAD_AS_ANIMAL = {
  /** Share of a face box inside an animal box from which the face is in it. */
  faceInside: 0.8,
  /** The face covers at least this share of the animal box: the box is its head (a horse with a small rider's face inside it is not). */
  faceOfBox: 0.15,
  /** Largest face box / image area from which the classifier, which sees the whole image, sees the face. */
  closeUpFace: 0.1,
} as const;

/**
 * When a face is an animal's head. On thumbnails of a close-up cat photo (112 and 96 px on the
 * longer side) the face search verified the cat's head as a human face (descriptor spread 11.1 and
 * 12.1, the bar is 11; confidence 0.62–0.63) and the caption said "a man wearing glasses", while the
 * classifier gave the animal classes 1.00. Measured with `npx tsx test/eval/thumbnail-faces.ts`
 * (docs/faces.md "Animal heads"): where the people fixtures have a close-up face, full size and
 * thumbnails down to 80 px, the animal classes sum to at most 0.70 (a dark-haired man read as a
 * Gordon setter); on the cat's thumbnails to 1.00. 53 animal photos at the same sizes had no other face.
 */
export const ANIMAL_HEAD_AS_FACE = {
  /** Summed probability of the classifier's animal classes (its top classes) from which it is sure of an animal. */
  animalSum: 0.8,
  /**
   * A face at least this confident stays whatever the classifier says (a person holding a pet close
   * up): 1 041 of the people fixtures' 1 052 faces (all sizes) reach it, the cat's heads 0.62–0.63.
   */
  keepConfidence: 0.7,
} as const;

/** Summed probability of the ImageNet classes below "animal" among `classes`. */
export function animalProbability(classes: readonly ClassScore[]): number {
  let p = 0;
  for (const c of classes) if (IMAGENET_HIERARCHY.classes[c.index]?.tags.includes('animal')) p += c.p;
  return p;
}

/** What the animal-head rule reads of a face: its box (px) and its calibrated confidence. */
export interface FaceBoxConfidence {
  box: { width: number; height: number };
  confidence: number;
}

/**
 * A face the classifier may overrule: a close-up (HEAD_AS_ANIMAL.closeUpFace of the image, so the
 * classifier sees it) under ANIMAL_HEAD_AS_FACE.keepConfidence.
 */
export function isUnsureCloseUpFace(f: FaceBoxConfidence, width: number, height: number): boolean {
  return f.confidence < ANIMAL_HEAD_AS_FACE.keepConfidence && area(f.box) >= HEAD_AS_ANIMAL.closeUpFace * width * height;
}

/**
 * The faces without the animals' heads among them: the unsure close-up faces go on an image the
 * classifier is sure shows an animal (ANIMAL_HEAD_AS_FACE.animalSum). Without the classifier's
 * classes the faces are kept.
 */
export function animalHeadsNotFaces<F extends FaceBoxConfidence>(
  faces: readonly F[],
  classes: readonly ClassScore[] | undefined,
  width: number,
  height: number,
): F[] {
  if (!faces.length || !classes || animalProbability(classes) < ANIMAL_HEAD_AS_FACE.animalSum) return [...faces];
  return faces.filter((f) => !isUnsureCloseUpFace(f, width, height));
}

const area = (b: { width: number; height: number }): number => Math.max(0, b.width) * Math.max(0, b.height);

/** An animal box that holds a verified face which is a good part of it: the head. */
export function isHeadReadAsAnimal(o: DetectedObject, faces: Evidence['faces']): boolean {
  if (!ANIMALS.has(o.label)) return false;
  const H = HEAD_AS_ANIMAL;
  return faces.some((f) => intersectionArea(f.box, o.box) >= H.faceInside * area(f.box) && area(f.box) >= H.faceOfBox * area(o.box));
}

/**
 * The evidence without the animals that are human heads: the detector's animal boxes around a
 * face, and, on a close-up face with no other animal box, the classifier's animal classes.
 */
export function headsNotAnimals(e: Evidence): Evidence {
  if (!e.faces.length) return e;
  const objects = e.objects.filter((o) => !isHeadReadAsAnimal(o, e.faces));
  const imageArea = e.width * e.height;
  const closeUp = e.faces.some((f) => area(f.box) >= HEAD_AS_ANIMAL.closeUpFace * imageArea);
  const otherAnimal = objects.some((o) => ANIMALS.has(o.label));
  const classes =
    closeUp && !otherAnimal && e.classes
      ? e.classes.filter((c) => !IMAGENET_HIERARCHY.classes[c.index]?.tags.includes('animal'))
      : e.classes;
  return objects.length === e.objects.length && classes === e.classes ? e : { ...e, objects, classes };
}
