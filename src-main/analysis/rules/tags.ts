import type { Tag } from '../../shared/spec';
import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import { PRESENT } from './classes';
import { AGE_YEARS, type Derived } from './derive';
import { scoreProduct, type Product } from './score';
import { LABEL_GROUPS, WORDING, type LabelGroupName } from './vocab';

/** Tags below this confidence are not reported. */
export const MIN_TAG_CONFIDENCE = 0.3;
/** `description.tags` lists the tag names from this confidence up. */
export const DESCRIPTION_TAG_CONFIDENCE = 0.5;
/** Tag confidences are rounded to this many steps (4 decimals). */
const TAG_STEPS = 10000;

/** The tag word of a COCO label. */
export function labelWord(label: CocoLabel): string {
  return WORDING[label] ?? label;
}

/**
 * A blank image (one flat colour, blank.ts) shows no scene and no drawing: a black frame is not
 * night, a flat blue page is not a drawing. It keeps what its pixels say (blank, colour, black and
 * white, clip-art look).
 */
const NOT_BLANK = { when: 'uniform.blank', then: 0, else: 1 } as const;

/**
 * Confidence of the `qr code` tag when a code is found: three finder patterns at right angles with
 * alternating timing patterns between them are no accident (none in 1 353 Open Clip Art drawings
 * and 700 photos, scene/qr-code.ts).
 */
export const QR_CODE_TAG_CONF = 0.95;

/**
 * Confidence of the `barcode` tag when an upright one-dimensional barcode is found (scene/barcode.ts:
 * none in 1 353 Open Clip Art drawings and 1 000 photos; a photographed facade of slanted stripes
 * came closest).
 */
export const BARCODE_TAG_CONF = 0.9;

/** One image-level tag: its confidence as a product over named quantities, bands and tests (score.ts). */
export interface TagRule {
  tag: string;
  score: Product;
}

/**
 * Scene and style tags. Colour-only scene words (sky, grass, tree) use `open` (photo × (1 −
 * frameFill)): they give way to a thing that fills the frame; water uses `openWater`, which gives
 * way to objects only (animals swim and wade). docs/analysis.md renders this table.
 */
export const TAG_RULES: readonly TagRule[] = [
  { tag: 'person', score: ['personConf'] },
  { tag: 'outdoor', score: ['outdoor'] },
  { tag: 'indoor', score: ['indoor'] },
  { tag: 'sky', score: [{ max: [['open', 'sky.tag'], ['starField']] }] },
  { tag: 'grass', score: ['open', 'vegetation.lawn'] },
  { tag: 'tree', score: ['open', 'vegetation.green', 'sky.treeTag'] },
  { tag: 'water', score: ['openWater', 'water.body'] },
  { tag: 'snow', score: ['photo', 'snow.cover', { when: 'outdoor.sure' }, { when: 'figure.isolated', then: 0, else: 1 }] },
  { tag: 'night', score: [{ max: [['night'], ['starField']] }, NOT_BLANK] },
  { tag: 'star', score: ['starField'] },
  { tag: 'qr code', score: [{ when: 'qrCode.found', then: QR_CODE_TAG_CONF, else: 0 }] },
  { tag: 'barcode', score: [{ when: 'barcode.found', then: BARCODE_TAG_CONF, else: 0 }] },
  { tag: 'text', score: [{ max: [['text'], ['lettering']] }] },
  { tag: 'pattern', score: ['pattern'] },
  {
    tag: 'drawing',
    score: [
      {
        first: [
          ['lineDrawing.yes', 0.9],
          ['clipArt.yes', 0.55],
        ],
      },
      NOT_BLANK,
    ],
  },
  {
    tag: 'clipart',
    score: [
      {
        first: [
          ['clipArtType.good', 0.9],
          ['clipArtType.normal', 0.7],
          ['clipArtType.ambiguous', 0.35],
        ],
      },
    ],
  },
  { tag: 'black and white', score: [{ when: 'bw.yes', then: 0.9 }] },
  { tag: 'blank', score: [{ when: 'uniform.blank', then: 0.9 }] },
];

/** General tags of detected labels, at HYPERNYM_FACTOR × the best member. */
export const HYPERNYM_TAGS: ReadonlyArray<{ tag: string; group: LabelGroupName }> = [
  { tag: 'animal', group: 'animals' },
  { tag: 'vehicle', group: 'vehicles' },
  { tag: 'food', group: 'food' },
];
/** A general tag (animal) counts a little less than the detected thing itself. */
export const HYPERNYM_FACTOR = 0.95;

/**
 * On a page of text (text ≥ PRESENT) the caption names no thing the classifier sees (caption.ts:
 * a handwritten page reads as a ruler, printed lines as a crossword); its tags agree: the
 * classifier's words count at this factor, below "present", as hints rather than claims. So on
 * drawn lettering (lettering ≥ PRESENT): a banner's coloured field read as a flag.
 */
export const TEXT_PAGE_CLASS_FACTOR = 0.5;

/**
 * The chart's kind ("bar chart") as a tag, × the chart's confidence: a little below it when the
 * nearest charts agree on the kind, below "present" when they do not.
 */
export const CHART_KIND_FACTOR = { said: 0.95, unsure: 0.6 } as const;

/** Per-face tags: weights × the face's detection confidence (man/woman: × gender confidence). */
export const FACE_TAG_WEIGHTS = { child: 0.85, smiling: 0.75, glasses: 0.8 } as const;
/** The group tag (≥ 3 people): base + perPerson × people, counted up to `upTo`. */
export const GROUP_TAG = { minPeople: 3, base: 0.6, perPerson: 0.05, upTo: 7 } as const;

/**
 * The Tags feature. Confidences are calibrated so ≥ 0.5 usually means present:
 * - objects: calibrated detector confidence (derive.ts `objectConfidence`), hypernyms (animal,
 *   vehicle, food) at HYPERNYM_FACTOR × the best member;
 * - classifier: specific names, display words and WordNet general tags (classes.ts), merged with
 *   the detector's words by maximum; on a page of text, lettering, a star field, a QR code or a barcode at TEXT_PAGE_CLASS_FACTOR;
 * - people: person from faces or person boxes; man/woman per adult face (face × gender
 *   confidence), child, group, smiling and glasses from attributes;
 * - scene and style: TAG_RULES.
 */
export function buildTags(e: Evidence, d: Derived): Tag[] {
  const tags = new Map<string, number>();
  const put = (name: string, c: number): void => {
    if (c > (tags.get(name) ?? 0)) tags.set(name, c);
  };
  for (const [label, c] of d.labels) {
    put(labelWord(label), c);
    for (const h of HYPERNYM_TAGS) if (LABEL_GROUPS[h.group].has(label)) put(h.tag, HYPERNYM_FACTOR * c);
  }
  const classFactor =
    d.text >= PRESENT || d.lettering >= PRESENT || d.starField >= PRESENT || d.qrCode >= PRESENT || d.barcode >= PRESENT
      ? TEXT_PAGE_CLASS_FACTOR
      : 1;
  for (const [word, c] of d.classes.words) put(word, c * classFactor);
  if (d.chart) {
    put('chart', d.chart.conf);
    put(d.chart.kind, d.chart.conf * (d.chart.word === d.chart.kind ? CHART_KIND_FACTOR.said : CHART_KIND_FACTOR.unsure));
  }
  for (const f of e.faces) {
    const c = f.confidence;
    put('human face', c);
    if (f.age < AGE_YEARS.child) put('child', c * FACE_TAG_WEIGHTS.child);
    else if (f.age >= AGE_YEARS.adult) put(f.gender === 'Male' ? 'man' : 'woman', c * f.genderConfidence);
    if (f.smiling) put('smiling', c * FACE_TAG_WEIGHTS.smiling);
    if (f.glasses) put('glasses', c * FACE_TAG_WEIGHTS.glasses);
  }
  if (d.persons >= GROUP_TAG.minPeople) put('group', GROUP_TAG.base + GROUP_TAG.perPerson * Math.min(d.persons, GROUP_TAG.upTo));
  for (const rule of TAG_RULES) put(rule.tag, scoreProduct(rule.score, e, d));
  return [...tags]
    .filter(([, c]) => c >= MIN_TAG_CONFIDENCE)
    .sort((p, q) => q[1] - p[1] || p[0].localeCompare(q[0]))
    .map(([name, c]) => ({ name, confidence: Math.round(c * TAG_STEPS) / TAG_STEPS }));
}
