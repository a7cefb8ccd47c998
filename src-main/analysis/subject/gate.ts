import { IMAGENET_HIERARCHY, subjectWord, type ClassScore } from '../classifier';
import type { CocoLabel } from '../objects/coco';
import type { DetectedObject } from '../objects/types';
import { COCO_OF_VOC_WORD, SEGMENTABLE } from './voc';

/**
 * When the segmenter runs: it costs about CenterNet's CPU (321×321, ≈ 70 ms; 185 ms at 513), so
 * only when the detector or the classifier already sees a VOC thing other than a person (a pet,
 * a vehicle, furniture, a plant, a bottle, a screen). People photos, the common case, get their
 * subject from the faces and person boxes. `detectorRaw` is a raw CenterNet score (between the
 * calibration's floor 0.25 and "present" 0.4: some evidence); `classifierP` the summed
 * probability of the top-k classes naming the thing (the classifier calibration's "present").
 */
export const SUBJECT_GATE = { detectorRaw: 0.3, classifierP: 0.3 } as const;

/** The segmentable non-person things the detector or the classifier sees (SUBJECT_GATE). */
export function seenVocThings(objects: readonly DetectedObject[], classes: readonly ClassScore[] | undefined): Set<CocoLabel> {
  const seen = new Set<CocoLabel>();
  for (const o of objects) if (o.label !== 'person' && SEGMENTABLE.has(o.label) && o.score >= SUBJECT_GATE.detectorRaw) seen.add(o.label);
  const sums = new Map<CocoLabel, number>();
  for (const c of classes ?? []) {
    const cls = IMAGENET_HIERARCHY.classes[c.index];
    const label = cls && COCO_OF_VOC_WORD.get(subjectWord(cls));
    if (label) sums.set(label, (sums.get(label) ?? 0) + c.p);
  }
  for (const [label, p] of sums) if (p >= SUBJECT_GATE.classifierP) seen.add(label);
  return seen;
}
