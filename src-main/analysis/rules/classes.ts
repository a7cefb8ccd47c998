import { IMAGENET_HIERARCHY, subjectWord, type ClassScore, type ImagenetClass } from '../classifier';
import type { Evidence } from '../evidence';
import { IMAGE_TYPE_RULES } from '../image-type';
import { COCO80, type CocoLabel } from '../objects/coco';
import { acceptedDrawingLabels } from './drawings';
import type { CategoryName } from './categories';
import { WORDING } from './vocab';

/**
 * Calibration of the classifier's probabilities, summed over the top-k classes that share a word
 * (tabby + tiger cat + Egyptian cat all say "cat"): piecewise-linear like the detector's, so that
 * 0.5 means "present". Measured on the fixtures and `npm run eval:unseen` (docs/analysis.md).
 */
export const CLASS_CALIBRATION = { floor: 0.1, present: 0.3, sure: 0.8, slopeAboveSure: 0.25 } as const satisfies Calibration;

/**
 * A piecewise-linear calibration from a raw score to a 0..1 confidence: `floor` maps to
 * CALIBRATED.floor, `present` to CALIBRATED.present, `sure` to CALIBRATED.sure; above `sure` the
 * confidence rises by `slopeAboveSure` per raw unit up to CALIBRATED.ceiling.
 */
export interface Calibration {
  floor: number;
  present: number;
  sure: number;
  slopeAboveSure: number;
}
/** Calibrated confidences at the calibration points: 0.5 means "present". */
export const CALIBRATED = { floor: 0.3, present: 0.5, sure: 0.9, ceiling: 0.99 } as const;
/** Calibrated confidence from which a thing counts as present. */
export const PRESENT = CALIBRATED.present;

/** Calibrated 0..1 confidence of a raw score. */
export function calibrate(raw: number, c: Calibration): number {
  const out = CALIBRATED;
  if (raw <= c.floor) return (raw / c.floor) * out.floor;
  if (raw <= c.present) return out.floor + ((raw - c.floor) / (c.present - c.floor)) * (out.present - out.floor);
  if (raw <= c.sure) return out.present + ((raw - c.present) / (c.sure - c.present)) * (out.sure - out.present);
  return Math.min(out.ceiling, out.sure + (raw - c.sure) * c.slopeAboveSure);
}

/**
 * The classifier learnt from photos; on drawings its answers are rarely right. Measured with
 * `npx tsx tooling/drawings/calibrate.ts` on the reference part of Open Clip Art (docs/analysis.md): on line
 * drawings and small-palette clip art the top class's words (name, display word or a general tag)
 * appear in the drawing's title or keywords in 1–7 % of drawings, whatever the probability (a
 * least-squares line `drawing.base + drawing.slope × p`); photos cut out on white that the
 * pixel rules still rate clip art (JPEG ones: image-type `cutoutPhoto`) have dozens of colour bins
 * and are mostly read right. So a
 * class's confidence is photoLikeness × the photo calibration + (1 − photoLikeness) × that
 * measured precision; photoLikeness is 0 on line drawings and ramps over `photoBins` (4-bit colour
 * bins covering 90 % of the pixels) on clip art, times the photo probe's ramp on clip art: a
 * colour-rich (gradient-shaded) drawing has as many bins as a cut-out photo, but the probe's
 * P(photo) tells them apart. On the reference part, the top class reached a tag (≥ 0.5) on 85 of
 * 4 499 clip-art drawings, 5 of them right; with the probe's ramp on 12, 1 right.
 */
export const CLASS_DRAWING_GATE = { photoBins: [8, 24], drawing: { base: 0, slope: 0.06 } } as const;

/**
 * Classes of printed pictures: what any drawing looks like to the photo-trained classifier (drawn
 * people are a comic book, a cartoon on a white page a jigsaw puzzle). On an image the pixel rules
 * rate clip art or a line drawing they name the medium, which the clipart and drawing tags already
 * say, not the subject, so they are left out there.
 */
export const PRINTED_PICTURE_CLASSES: ReadonlySet<string> = new Set(['comic book', 'book jacket', 'jigsaw puzzle', 'crossword puzzle']);

/**
 * The caption names the kind instead of the best thing when the kind's summed probability exceeds
 * this × the thing's (monastery, castle, palace: "a building").
 */
export const KIND_OVER_THING = 2;
/**
 * An unsure image is named by a kind only when the kind's summed probability is at least this ×
 * its most probable member's: the classes agree on the kind, no single one carries it (a cucumber
 * 0.34 among leaves is not "a vegetable").
 */
export const KIND_OVER_MEMBER = 1.5;

/**
 * Confidence from which the classifier's word names the subject of the caption (a little above
 * "present": a wrong name reads worse than a vague caption).
 */
export const CLASS_SUBJECT_CONFIDENCE = 0.55;

/** General tags (fruit, animal) count a little less than the name of the thing itself. */
export const GENERAL_TAG_FACTOR = 0.95;
/** The specific name ("golden retriever") is reported from its own probability only, a little lower. */
export const SPECIFIC_NAME_FACTOR = 0.9;

/**
 * Kinds of things usually photographed close up: a confident classifier answer of such a kind
 * fills the frame (frameFill); vehicles, buildings and rockets usually stand in a scene.
 */
export const CLOSE_UP_KINDS: ReadonlySet<string> = new Set([
  'animal',
  'fruit',
  'vegetable',
  'food',
  'flower',
  'fungus',
  'drink',
  'cup',
  'bottle',
  'musical instrument',
  'computer',
  'clock',
  'ball',
  'hat',
  'clothing',
  'footwear',
  'tool',
  'kitchen utensil',
  'toy',
]);

/** General tags that read well as a caption's subject ("a building", "a dog", "a flower"). */
export const CAPTION_KINDS: ReadonlySet<string> = new Set([
  'animal',
  'bird',
  'fish',
  'insect',
  'dog',
  'cat',
  'monkey',
  'bear',
  'horse',
  'fruit',
  'vegetable',
  'flower',
  'building',
  'tower',
  'boat',
  'car',
  'truck',
  'bus',
  'train',
  'aircraft',
  'musical instrument',
  'computer',
  'clock',
  'bottle',
  'cup',
  'ball',
  'hat',
  'drink',
  'tool',
  'kitchen utensil',
]);

/** Categories that describe a place rather than a thing in it: such classes do not fill the frame. */
const SCENE_CATEGORY = /^(outdoor_|indoor_(?!room)|building_|sky_)/;

/** A word the classifier supports, with its calibrated confidence. */
export interface ClassWord {
  word: string;
  conf: number;
}

/** A named thing the classifier sees (its display word), for captions. */
export interface ClassSubject {
  word: string;
  conf: number;
  /** The COCO label of the same thing, when the detector has one. */
  coco?: CocoLabel;
  animal: boolean;
  /** General tags of its class (WordNet hypernyms), nearest first. */
  tags: readonly string[];
  /** A place (lakeside, library, church) rather than a thing. */
  scene: boolean;
  /** A kind of things from the drawing vocabulary (mammal, container): a detected thing says more. */
  kind?: boolean;
}

/** What the rules take from the classifier. */
export interface ClassEvidence {
  /** Calibrated confidence per word: specific names, display words and general tags. */
  words: Map<string, number>;
  /** Calibrated confidence per taxonomy category. */
  categories: Map<CategoryName, number>;
  /** Display words, best first (≥ the floor). */
  subjects: ClassSubject[];
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** Calibrated 0..1 confidence of a summed class probability (on a photo: photoLike 1). */
export function classConfidence(p: number, photoLike = 1): number {
  const { base, slope } = CLASS_DRAWING_GATE.drawing;
  return photoLike * calibrate(p, CLASS_CALIBRATION) + (1 - photoLike) * clamp01(base + slope * p);
}

/** COCO label by the word our tags use for it (labelWord) and by its own name. */
const COCO_BY_WORD = new Map<string, CocoLabel>([
  ...COCO80.map((l) => [l, l] as const),
  ...COCO80.map((l) => [WORDING[l] ?? l, l] as const),
]);

/** The COCO label a classifier word names, if any ("dog" → dog, "television" → tv). */
export function cocoOfWord(word: string): CocoLabel | undefined {
  return COCO_BY_WORD.get(word);
}

const isScene = (c: ImagenetClass): boolean => !!c.category && SCENE_CATEGORY.test(c.category) && !c.tags.includes('furniture');

/** 1 for photos, 0 for line drawings and small-palette clip art, a ramp over the palette (and the photo probe) between. */
export function photoLikeness(e: Evidence): number {
  return photoLikenessOf(e.imageType, e.colorBins90, e.photoProb);
}

/**
 * photoLikeness from the image type, the palette (4-bit colour bins covering 90 % of the pixels)
 * and the photo probe's P(photo), when known: on clip art, the palette's ramp times the probe's
 * (IMAGE_TYPE_RULES.photoProbe.drawing, where the image type reads P(photo) as a drawing's).
 */
export function photoLikenessOf(
  type: { lineDrawingType: number; clipArtType: number },
  colorBins90: number | undefined,
  photoProb?: number,
): number {
  if (type.lineDrawingType === 1) return 0;
  if (type.clipArtType < 2) return 1;
  const [lo, hi] = CLASS_DRAWING_GATE.photoBins;
  const [drawn, photo] = IMAGE_TYPE_RULES.photoProbe.drawing;
  const probe = photoProb === undefined ? 1 : clamp01((photoProb - drawn) / (photo - drawn));
  return clamp01(((colorBins90 ?? lo) - lo) / (hi - lo)) * probe;
}

/**
 * Aggregates the classifier's top-k over the WordNet hierarchy: each word's probability is the
 * sum over the classes carrying it, calibrated (on drawings by CLASS_DRAWING_GATE); on drawings
 * the drawing vocabulary's accepted labels join them.
 */
export function classEvidence(e: Evidence): ClassEvidence {
  const words = new Map<string, number>();
  const categories = new Map<CategoryName, number>();
  const subjects: ClassSubject[] = [];
  const drawn = e.imageType.lineDrawingType === 1 || e.imageType.clipArtType >= 2;
  const scores: ClassScore[] = (e.classes ?? []).filter(
    (c) => !drawn || !PRINTED_PICTURE_CLASSES.has(IMAGENET_HIERARCHY.classes[c.index]?.name ?? ''),
  );
  if (!scores.length) {
    addDrawingThings(e, words, subjects);
    return { words, categories, subjects };
  }
  const photoLike = photoLikeness(e);
  const conf = (q: number): number => classConfidence(q, photoLike);
  const sums = { display: new Map<string, number>(), tag: new Map<string, number>(), category: new Map<CategoryName, number>() };
  /** Per general tag, the probability of its most probable class. */
  const bestMember = new Map<string, number>();
  const add = <K>(m: Map<K, number>, k: K, p: number): void => void m.set(k, (m.get(k) ?? 0) + p);
  const meta = new Map<string, ImagenetClass>();
  for (const { index, p: q } of scores) {
    const c = IMAGENET_HIERARCHY.classes[index];
    if (!c) continue;
    const display = subjectWord(c);
    add(sums.display, display, q);
    if (!meta.has(display)) meta.set(display, c);
    for (const t of c.tags) {
      add(sums.tag, t, q);
      bestMember.set(t, Math.max(bestMember.get(t) ?? 0, q));
    }
    if (c.category) add(sums.category, c.category, q);
    if (c.display) words.set(c.name, Math.max(words.get(c.name) ?? 0, SPECIFIC_NAME_FACTOR * conf(q)));
  }
  for (const [t, q] of sums.tag) words.set(t, Math.max(words.get(t) ?? 0, GENERAL_TAG_FACTOR * conf(q)));
  for (const [w, q] of sums.display) words.set(w, Math.max(words.get(w) ?? 0, conf(q)));
  for (const [k, q] of sums.category) categories.set(k, clamp01(conf(q)));
  const ranked = [...sums.display].sort((a, b) => b[1] - a[1]);
  const unsure = unsureKind(ranked[0]?.[1] ?? 0, sums.tag, bestMember, conf);
  if (unsure) {
    const c = scores.map((s) => IMAGENET_HIERARCHY.classes[s.index]).find((x) => x?.tags.includes(unsure.kind))!;
    const tags = c.tags.slice(c.tags.indexOf(unsure.kind) + 1);
    subjects.push({
      word: unsure.kind,
      conf: unsure.conf,
      coco: cocoOfWord(unsure.kind),
      animal: c.tags.includes('animal'),
      tags,
      scene: isScene(c),
    });
  }
  for (const [display, q] of ranked) {
    if (q <= CLASS_CALIBRATION.floor) break;
    const c = meta.get(display)!;
    // When the classes disagree on the main thing but agree on its kind (monastery, castle,
    // palace: all buildings), the caption names the kind.
    const kind = subjects.length ? undefined : c.tags.find((t) => CAPTION_KINDS.has(t) && (sums.tag.get(t) ?? 0) > KIND_OVER_THING * q);
    const word = kind ?? display;
    if (subjects.some((x) => x.word === word)) continue;
    subjects.push({
      word,
      conf: conf(kind ? sums.tag.get(kind)! : q),
      coco: cocoOfWord(word),
      animal: c.tags.includes('animal'),
      tags: c.tags,
      scene: isScene(c),
    });
  }
  addDrawingThings(e, words, subjects);
  return { words, categories, subjects };
}

/**
 * When no single class is sure enough to name the subject (CLASS_SUBJECT_CONFIDENCE) but a caption
 * kind their probabilities share is, outweighing the best thing and carried by several members
 * (KIND_OVER_MEMBER: hatchet 0.31, hammer 0.13, cleaver 0.04: "a tool"; frying pan, coffeepot,
 * teapot: "a kitchen utensil"), that kind, with its confidence.
 */
function unsureKind(
  bestThing: number,
  tagSums: ReadonlyMap<string, number>,
  bestMember: ReadonlyMap<string, number>,
  conf: (q: number) => number,
): { kind: string; conf: number } | undefined {
  if (conf(bestThing) >= CLASS_SUBJECT_CONFIDENCE) return undefined;
  let best: { kind: string; conf: number } | undefined;
  for (const [kind, q] of tagSums) {
    if (!CAPTION_KINDS.has(kind) || q <= bestThing || conf(q) < CLASS_SUBJECT_CONFIDENCE) continue;
    if (q < KIND_OVER_MEMBER * (bestMember.get(kind) ?? 0)) continue;
    if (!best || conf(q) > best.conf) best = { kind, conf: conf(q) };
  }
  return best;
}

/**
 * On drawings and clip art (the pipeline votes only there), the labels the drawing vocabulary
 * accepts (rules/drawings.ts) join the classifier's words and subjects, each with its accepted
 * hypernyms as its tags. Unlike the classifier's, they are not scaled by
 * photoLikeness: their thresholds were calibrated on every kind of Open Clip Art drawing, the
 * photo-like palettes included, and the similarity gate keeps them off what looks unlike one.
 */
function addDrawingThings(e: Evidence, words: Map<string, number>, subjects: ClassSubject[]): void {
  if (!e.drawingVotes?.length) return;
  const accepted = acceptedDrawingLabels(e.drawingVotes);
  if (!accepted.length) return;
  const byLabel = new Map(e.drawingVotes.map((v) => [v.label, v]));
  const drawn: ClassSubject[] = [];
  for (const a of accepted) {
    words.set(a.word, Math.max(words.get(a.word) ?? 0, a.conf));
    const parents = new Set(byLabel.get(a.label)!.parents);
    const tags = accepted.filter((x) => parents.has(x.label)).map((x) => x.word);
    // The classifier's subject of the same word (its confidence low on a drawing) moves here.
    const same = subjects.findIndex((x) => x.word === a.word);
    const conf = Math.max(a.conf, same >= 0 ? subjects.splice(same, 1)[0]!.conf : 0);
    const kind = byLabel.get(a.label)!.general;
    drawn.push({ word: a.word, conf, coco: cocoOfWord(a.word), animal: tags.includes('animal'), tags, scene: false, kind });
  }
  // Specific labels first, their hypernyms after (the caption falls back to "an animal" when
  // "a lion" is too unsure), as a block before the classifier's subjects when surer than its
  // best; labels that are general tags of the classifier's best thing always after it (a
  // classified cow says more than "an animal").
  const best = subjects[0];
  const kindOfBest = (x: ClassSubject): boolean => !!best && best.tags.includes(x.word);
  const ahead = drawn.filter((x) => !kindOfBest(x));
  if (ahead.length && ahead[0]!.conf >= (best?.conf ?? 0)) subjects.unshift(...ahead);
  else subjects.push(...ahead);
  subjects.push(...drawn.filter(kindOfBest));
}
