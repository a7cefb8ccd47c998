/**
 * Faces without animals' heads, for every operation that reports faces (analyze, detect): the
 * rule is rules/heads.ts `animalHeadsNotFaces`; this runs the ImageNet classifier for it when the
 * caller has no classes yet and a face is one the rule may overrule (an unsure close-up: 11 of
 * the people crops' 1 052 faces), so other images pay nothing.
 */
import type { ModelRunner, RgbImage } from '../inference';
import { classifyWithFeatures, type ClassScore } from './classifier';
import { animalHeadsNotFaces, isUnsureCloseUpFace, type FaceBoxConfidence } from './rules/heads';

/** `faces` without those the classifier shows to be an animal's head; `classes` when already at hand. */
export async function withoutAnimalHeads<F extends FaceBoxConfidence>(
  img: RgbImage,
  faces: F[],
  runner: ModelRunner,
  classes?: readonly ClassScore[],
  signal?: AbortSignal,
): Promise<F[]> {
  if (!faces.some((f) => isUnsureCloseUpFace(f, img.width, img.height))) return faces;
  const seen = classes ?? (await classifyWithFeatures(img, runner, signal)).classes;
  return animalHeadsNotFaces(faces, seen, img.width, img.height);
}
