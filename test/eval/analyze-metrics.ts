// Scoring of analyze results against the fixtures' ground truth (used by `npm run eval:analyze`
// and by the CI test test/main/services/analyze-targets.test.ts, so both report the same figures).
import type { AnalyzeData } from '../../src-main/shared/spec';

/** Ground truth fields of one fixture used here. */
export interface Truth {
  file: string;
  truth: {
    adult: boolean;
    faces: unknown[];
    objects?: string[];
    scene?: string[];
    isBW: boolean;
    clipArt?: boolean;
    lineDrawing?: boolean;
  };
}

/** Words that name the same thing (either side may be the manifest's or ours). */
const SYNONYMS: string[][] = [
  ['person', 'people', 'man', 'men', 'woman', 'women', 'child', 'children', 'boy', 'girl', 'human', 'baby'],
  ['couch', 'sofa'],
  ['tv', 'television', 'monitor'],
  ['cup', 'mug', 'coffee cup'],
  ['table', 'dining table', 'desk'],
  ['cell phone', 'phone', 'mobile phone'],
  ['gift box', 'present', 'gift', 'box'],
  ['saucer', 'plate'],
  ['bicycle', 'bike'],
  ['motorcycle', 'motorbike'],
  ['airplane', 'plane', 'aircraft'],
  ['potted plant', 'houseplant', 'plant'],
  ['sports ball', 'ball'],
  ['rocket', 'missile', 'spacecraft'],
  ['lion', 'big cat'],
  ['camera'],
  ['tripod'],
  ['flag'],
  ['cheese'],
];

/** Every word our tags may use for objects (COCO words and the synonyms above). */
export function isObjectWord(word: string, cocoWords: readonly string[]): boolean {
  return cocoWords.includes(word) || SYNONYMS.some((g) => g.includes(word));
}

/** True when two words name the same thing. */
export function sameThing(a: string, b: string): boolean {
  if (a === b) return true;
  return SYNONYMS.some((g) => g.includes(a) && g.includes(b));
}

/**
 * Subject words for fixtures whose manifest lists no objects (eval-only ground truth, read off
 * the manifest notes): the caption must name one of them.
 */
const SUBJECT_WITHOUT_OBJECTS: Record<string, string[]> = {
  'text_bw.png': ['text', 'writing', 'handwriting', 'page'],
  'dancer_sketch_line_drawing.png': ['person', 'woman', 'man', 'dancer', 'figure', 'people'],
  'colosseum.jpg': ['building', 'colosseum', 'ruins', 'arena', 'stone', 'arches'],
};

/** Words accepted as the main subject of a fixture. */
export function subjectWords(t: Truth): string[] {
  const main = t.truth.objects?.[0];
  if (main) return SYNONYMS.find((g) => g.includes(main)) ?? [main];
  return SUBJECT_WITHOUT_OBJECTS[t.file] ?? t.truth.scene ?? [];
}

/** True when the caption names the fixture's main subject (whole-word match). */
export function captionNamesSubject(caption: string, t: Truth): boolean {
  const words = subjectWords(t);
  return words.some((w) => new RegExp(`\\b${w}s?\\b`, 'i').test(caption));
}

/** True when the caption names any of the fixture's annotated objects (whole words, synonyms). */
export function captionNamesObject(caption: string, t: Truth): boolean {
  return (t.truth.objects ?? []).some((o) =>
    (SYNONYMS.find((g) => g.includes(o)) ?? [o]).some((w) => new RegExp(`\\b${w}s?\\b`, 'i').test(caption)),
  );
}

/** Captions that name nothing: the fallbacks of rules/caption.ts. */
export const GENERIC_CAPTIONS: ReadonlySet<string> = new Set([
  'an image',
  'a black and white photo',
  'a clip art image',
  'a black and white line drawing',
]);

/** Object-tag counts of one image: predicted object tags ≥ 0.5, right ones, truth objects found. */
export interface TagCounts {
  predicted: string[];
  correct: string[];
  wrong: string[];
  missed: string[];
  truthTotal: number;
}

/**
 * Object tags of one image: a tag counts as a prediction when its confidence is ≥ 0.5 and it is
 * an object word; it is right when it names one of the manifest's objects or scene words.
 */
export function scoreTags(data: AnalyzeData, t: Truth, cocoWords: readonly string[]): TagCounts {
  const truthObjects = t.truth.objects ?? [];
  const acceptable = [...truthObjects, ...(t.truth.scene ?? [])];
  const predicted = (data.tags ?? []).filter((x) => x.confidence >= 0.5 && isObjectWord(x.name, cocoWords)).map((x) => x.name);
  const correct = predicted.filter((p) => acceptable.some((a) => sameThing(a, p)));
  const wrong = predicted.filter((p) => !correct.includes(p));
  const strong = (data.tags ?? []).filter((x) => x.confidence >= 0.5).map((x) => x.name);
  const missed = truthObjects.filter((o) => !strong.some((p) => sameThing(o, p)));
  return { predicted, correct, wrong, missed, truthTotal: truthObjects.length };
}

/** Aggregated figures over a fixture set. */
export interface Summary {
  isBW: { right: number; total: number };
  clipArt: { right: number; total: number };
  lineDrawing: { right: number; total: number };
  tags: { predicted: number; correct: number; truth: number; found: number };
  adultFalsePositives: number;
  racyFalsePositives: number;
  subject: { right: number; total: number };
  faces: { found: number; truth: number };
}

/** Adds one image's result to the summary. */
export function accumulate(s: Summary, data: AnalyzeData, t: Truth, cocoWords: readonly string[]): TagCounts {
  s.isBW.total++;
  if (data.color?.isBWImg === t.truth.isBW) s.isBW.right++;
  if (t.truth.clipArt !== undefined) {
    s.clipArt.total++;
    if (data.imageType!.clipArtType >= 2 === t.truth.clipArt) s.clipArt.right++;
  }
  if (t.truth.lineDrawing !== undefined) {
    s.lineDrawing.total++;
    if ((data.imageType!.lineDrawingType === 1) === t.truth.lineDrawing) s.lineDrawing.right++;
  }
  const tags = scoreTags(data, t, cocoWords);
  s.tags.predicted += tags.predicted.length;
  s.tags.correct += tags.correct.length;
  s.tags.truth += tags.truthTotal;
  s.tags.found += tags.truthTotal - tags.missed.length;
  if (data.adult?.isAdultContent && !t.truth.adult) s.adultFalsePositives++;
  if (data.adult?.isRacyContent && !t.truth.adult) s.racyFalsePositives++;
  s.subject.total++;
  if (captionNamesSubject(data.description?.captions[0]?.text ?? '', t)) s.subject.right++;
  s.faces.found += data.faces?.length ?? 0;
  s.faces.truth += t.truth.faces.length;
  return tags;
}

export function emptySummary(): Summary {
  return {
    isBW: { right: 0, total: 0 },
    clipArt: { right: 0, total: 0 },
    lineDrawing: { right: 0, total: 0 },
    tags: { predicted: 0, correct: 0, truth: 0, found: 0 },
    adultFalsePositives: 0,
    racyFalsePositives: 0,
    subject: { right: 0, total: 0 },
    faces: { found: 0, truth: 0 },
  };
}

export const ratio = (r: { right: number; total: number }): number => (r.total ? r.right / r.total : 1);
export const precision = (s: Summary): number => (s.tags.predicted ? s.tags.correct / s.tags.predicted : 1);
export const recall = (s: Summary): number => (s.tags.truth ? s.tags.found / s.tags.truth : 1);
