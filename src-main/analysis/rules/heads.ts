/**
 * A human head is not an animal. On a close-up face CenterNet boxes the head as a cat or a dog
 * (raw 0.30–0.40 on face crops, the box around the whole head) and the classifier, which has no
 * class for a human face, names a dog breed or a primate; the captions said "a man with a cat".
 * A face the face search verified (faceres' descriptor, face-verify.ts) outweighs them.
 */
import type { Box } from '../../inference';
import { intersectionArea } from '../../inference/tensor';
import type { Evidence } from '../evidence';
import { IMAGENET_HIERARCHY } from '../classifier';
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

const area = (b: Box): number => Math.max(0, b.width) * Math.max(0, b.height);

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
