// How the three opinions on COCO things combine: the detector's boxes (derive.ts), the
// classifier's named things (a second opinion, and a veto on animals) and DeepLab's segmented
// regions (a third opinion, photos only).
import { overlapOfSmaller, type Box } from '../../inference/tensor';
import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import type { DetectedObject } from '../objects/types';
import { band } from './bands';
import { CALIBRATED, PRESENT, type ClassEvidence } from './classes';
import { ANIMALS } from './vocab';

/**
 * Confidence of a segmented region (DeepLab, photos only) from its share of the image: base +
 * span × band regionShare.thing (a region of ≈ 4 % of the image is "present"). DeepLab knows only
 * 20 things and paints others as one of them (a mug as a cat, a mushroom as a cat), so a region
 * is an opinion only where the detector or the classifier already gives its label some evidence
 * (≥ CALIBRATED.floor): the two then combine as independent opinions (1 − (1 − a)(1 − b)), up to
 * `agreedMax`. Furniture (SUPPORTS) needs no such evidence: it is what things rest on, large and
 * rarely confused.
 */
export const REGION_CONF = { base: 0.35, span: 0.45, agreedMax: 0.95 } as const;
/** Segmented furniture that counts without the detector's or the classifier's word. */
const SUPPORTS: ReadonlySet<CocoLabel> = new Set(['couch', 'chair', 'dining table']);

/**
 * The classifier as a second opinion for the detector: a COCO thing the classifier names (a
 * close-up cat CenterNet misses) gets the classifier's confidence when that is higher, and counts
 * once when it reaches 0.5 and the detector found no instance.
 */
export function secondOpinion(labels: Map<CocoLabel, number>, counts: Map<CocoLabel, number>, classes: ClassEvidence): void {
  for (const s of classes.subjects) {
    if (!s.coco || s.conf <= (labels.get(s.coco) ?? 0)) continue;
    labels.set(s.coco, s.conf);
    if (s.conf >= PRESENT && !counts.has(s.coco)) counts.set(s.coco, 1);
  }
}

/**
 * DeepLab's regions as a third opinion (REGION_CONF; not for people: faces and person boxes count
 * them): a confirmed region or furniture sets its label's confidence when higher, and counts once
 * when present and the detector found no instance. Returns those regions the detector did not
 * box, as located things.
 */
export function regionOpinion(e: Evidence, labels: Map<CocoLabel, number>, counts: Map<CocoLabel, number>): DetectedObject[] {
  const located: DetectedObject[] = [];
  for (const r of e.subject?.regions ?? []) {
    if (r.label === 'person') continue;
    const own = REGION_CONF.base + REGION_CONF.span * band('regionShare.thing', r.share);
    const prior = labels.get(r.label) ?? 0;
    const confirmed = prior >= CALIBRATED.floor;
    if (!confirmed && !SUPPORTS.has(r.label)) continue;
    const conf = confirmed ? Math.min(REGION_CONF.agreedMax, 1 - (1 - prior) * (1 - own)) : own;
    if (conf > prior) labels.set(r.label, conf);
    if (conf >= PRESENT && !counts.has(r.label)) counts.set(r.label, 1);
    if (!e.objects.some((o) => o.label === r.label)) located.push({ label: r.label, score: conf, box: r.box });
  }
  return located;
}

/**
 * The classifier as a veto on animals it contradicts (a ladybird DeepLab paints as a bird, a
 * gorilla CenterNet boxes as a person). When the classifier's best thing is an animal it is sure
 * of (calibrated ≥ minClassConf) and not a mere kind, another animal label is capped at `cap`
 * where its own evidence is weak (the detector below "present", raised only by a segmented
 * region), where its box or region fills the frame (≥ frameShare: the classifier, which sees
 * the whole frame, would have named it), or where none of its boxes lies apart from the
 * classifier's own animal: CenterNet knows ten animals and the classifier hundreds, so a
 * porcupine is boxed as a bear, a wallaby as a bear, a lemur as a sheep. Apart means the
 * classifier's animal has a box (a detection or a region of its COCO label) and the two overlap
 * by less than `sameAnimalOverlap` of the smaller box. The cap lies below the tags'
 * MIN_TAG_CONFIDENCE, so a vetoed label is not reported. Two animals side by side keep both: each
 * is a confident detection of its own part of the frame.
 */
export const CLASSIFIER_VETO = { minClassConf: 0.9, frameShare: 0.5, cap: 0.2, sameAnimalOverlap: 0.5 } as const;

/**
 * The classifier has no person class, so the animal it names says nothing against a person, except
 * an animal that is taken for one (WordNet tags of apes and monkeys); and never against a found face.
 */
export const PERSON_LOOKALIKE_TAGS: readonly string[] = ['primate'];

/**
 * Applies CLASSIFIER_VETO to `labels` and `counts`. `detected` is the detector's calibrated
 * confidence per label, before the other opinions. Returns the labels of confident boxes under
 * half the frame that it took for the classifier's own animal misnamed (the porcupine's "bear"):
 * their boxes still show that animal, so they keep what they say about the setting (derive.ts).
 */
export function classifierVeto(
  e: Evidence,
  labels: Map<CocoLabel, number>,
  counts: Map<CocoLabel, number>,
  classes: ClassEvidence,
  detected: ReadonlyMap<CocoLabel, number>,
): ReadonlySet<CocoLabel> {
  const v = CLASSIFIER_VETO;
  const best = classes.subjects[0];
  const misnamed = new Set<CocoLabel>();
  // A kind ("an animal", the drawing vocabulary's "mammal") contradicts none of its members.
  if (!best?.animal || best.scene || best.kind || best.word === 'animal' || best.conf < v.minClassConf) return misnamed;
  const area = e.width * e.height;
  const boxesOf = (label: CocoLabel): Box[] => [
    ...e.objects.filter((o) => o.label === label).map((o) => o.box),
    ...(e.subject?.regions ?? []).filter((r) => r.label === label).map((r) => r.box),
  ];
  const own = best.coco ? boxesOf(best.coco) : [];
  const apart = (label: CocoLabel): boolean =>
    own.length > 0 && boxesOf(label).some((b) => own.every((o) => overlapOfSmaller(b, o) < v.sameAnimalOverlap));
  const contradicted = (label: CocoLabel): boolean => {
    if (label === best.coco || best.tags.includes(label)) return false;
    if (label === 'person') return e.faces.length === 0 && best.tags.some((t) => PERSON_LOOKALIKE_TAGS.includes(t));
    return ANIMALS.has(label);
  };
  for (const [label, conf] of labels) {
    if (conf <= v.cap || !contradicted(label)) continue;
    const share = Math.max(
      0,
      ...e.objects.filter((o) => o.label === label).map((o) => (o.box.width * o.box.height) / area),
      ...(e.subject?.regions ?? []).filter((r) => r.label === label).map((r) => r.share),
    );
    const confidentPart = (detected.get(label) ?? 0) >= PRESENT && share < v.frameShare;
    if (confidentPart && apart(label)) continue;
    if (confidentPart && label !== 'person') misnamed.add(label);
    labels.set(label, v.cap);
    counts.delete(label);
  }
  return misnamed;
}
