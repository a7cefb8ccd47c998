import { IMAGENET_HIERARCHY, subjectWord, type ClassScore } from '../classifier';
import type { DetectedObject } from '../objects/types';
import { SEGMENTABLE, VOC_WORDS } from './voc';

/**
 * When the segmenter runs: it costs about twice the rest of analyze (513×513, ≈ 200 ms of CPU),
 * so only when the detector or the classifier already sees a VOC thing other than a person (a
 * pet, a vehicle, furniture, a plant, a bottle, a screen). People photos, the common case, get
 * their subject from the faces and person boxes. `detectorRaw` is a raw CenterNet score (the
 * calibration's floor: some evidence, not yet "present"); `classifierP` the summed probability of
 * the top-k classes naming a VOC thing.
 */
export const SUBJECT_GATE = { detectorRaw: 0.3, classifierP: 0.2 } as const;

/** True when the evidence so far names a segmentable thing other than a person. */
export function wantsSubject(objects: readonly DetectedObject[], classes: readonly ClassScore[] | undefined): boolean {
  if (objects.some((o) => o.label !== 'person' && SEGMENTABLE.has(o.label) && o.score >= SUBJECT_GATE.detectorRaw)) return true;
  let p = 0;
  for (const c of classes ?? []) {
    const cls = IMAGENET_HIERARCHY.classes[c.index];
    if (cls && VOC_WORDS.has(subjectWord(cls))) p += c.p;
  }
  return p >= SUBJECT_GATE.classifierP;
}
