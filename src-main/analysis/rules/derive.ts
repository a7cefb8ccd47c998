import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import type { DetectedObject } from '../objects/types';
import { classEvidence, CLOSE_UP_KINDS, type ClassEvidence } from './classes';
import { INDOOR_OBJECTS, OUTDOOR_OBJECTS } from './vocab';

/**
 * Detector-score calibration: raw CenterNet peak scores are mapped piecewise-linearly so that
 * 0.5 sits at the score where detections on real photos become mostly right (`present`), and
 * the floor below which nothing is reported (`floor`). See docs/analysis.md.
 */
export const OBJECT_CALIBRATION = { floor: 0.25, present: 0.4, sure: 0.7 } as const;

/**
 * Raw-score handicap of detections in clip art and line drawings. The detector learnt from photos;
 * on drawings its raw 0.4–0.55 detections are mostly wrong (stars read as toilets, maps as
 * kites): on `npm run eval:unseen`'s 240 drawings, 19 of 22 tagged images were wrong without the
 * handicap, 2 of 5 with it. Drawings therefore need a raw 0.55 to count as present.
 */
export const DRAWING_SCORE_SHIFT = 0.15;

/** The raw score the calibration sees: handicapped on drawings. */
function effectiveScore(e: Evidence, raw: number): number {
  const drawing = e.imageType.lineDrawingType === 1 || e.imageType.clipArtType >= 2;
  return drawing ? raw - DRAWING_SCORE_SHIFT : raw;
}

/** Calibrated 0..1 confidence of a raw detector score (0.5 ≈ present). */
export function objectConfidence(raw: number): number {
  const { floor, present, sure } = OBJECT_CALIBRATION;
  if (raw <= floor) return (raw / floor) * 0.3;
  if (raw <= present) return 0.3 + ((raw - floor) / (present - floor)) * 0.2;
  if (raw <= sure) return 0.5 + ((raw - present) / (sure - present)) * 0.4;
  return Math.min(0.99, 0.9 + (raw - sure) * 0.3);
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const ramp = (x: number, lo: number, hi: number): number => clamp01((x - lo) / (hi - lo));

/** Quantities shared by the category, tag and caption rules, derived once from the evidence. */
export interface Derived {
  /** Calibrated confidence per detected label (max over instances). */
  labels: Map<CocoLabel, number>;
  /** Instances per label with calibrated confidence ≥ 0.5. */
  counts: Map<CocoLabel, number>;
  /** People in the image: max of faces and confident person boxes. */
  persons: number;
  /** 0..1 confidence that a person is present. */
  personConf: number;
  /** Largest face area / image area. */
  largestFaceShare: number;
  men: number;
  women: number;
  children: number;
  babies: number;
  smiling: number;
  glasses: number;
  /** 0..1: the image is a line drawing, clip art or other non-photo. */
  drawing: number;
  lineDrawing: boolean;
  clipArt: boolean;
  /**
   * Sky share that counts as evidence: blue sky fully; bright-grey "overcast" sky fully in B&W
   * photos, × 0.8 otherwise and × 0.3 behind a portrait face (studio backdrops are white too).
   */
  sky: number;
  /** 0..1 evidence of an outdoor / indoor setting (photos only). */
  outdoor: number;
  indoor: number;
  /** 0..1 darkness / night. */
  night: number;
  /** 0..1 text-like content. */
  text: number;
  /** The classifier's words, categories and subjects (empty when it did not run). */
  classes: ClassEvidence;
  /**
   * 0..1: a thing fills the frame (a detected box over 30→60 % of the image, or a thing of a
   * close-up kind the classifier names with confidence 0.5→0.9 in a photo without people). Colour-only scene words (grass, sky, night) are
   * scaled by 1 − frameFill: a close-up of a green apple is not a grassy field.
   */
  frameFill: number;
}

/** Derives the shared rule inputs. */
export function derive(e: Evidence): Derived {
  const labels = new Map<CocoLabel, number>();
  const counts = new Map<CocoLabel, number>();
  for (const o of e.objects) {
    const c = objectConfidence(effectiveScore(e, o.score));
    labels.set(o.label, Math.max(labels.get(o.label) ?? 0, c));
    if (c >= 0.5) counts.set(o.label, (counts.get(o.label) ?? 0) + 1);
  }
  const classes = classEvidence(e);
  secondOpinion(labels, counts, classes);
  const frameFill = frameFilling(e, labels, classes);
  const area = e.width * e.height;
  const faces = e.faces;
  const persons = faces.length + extraPeople(e);
  const faceConf = faces.reduce((m, f) => Math.max(m, f.confidence), 0);
  const personConf = Math.max(labels.get('person') ?? 0, faces.length ? 0.6 + 0.39 * faceConf : 0);
  const adults = faces.filter((f) => f.age >= 18);
  const lineDrawing = e.imageType.lineDrawingType === 1;
  const clipArt = e.imageType.clipArtType >= 2;
  // Photos (clipArtType 0) are fully photos; "ambiguous" (1) counts as a little drawing.
  const drawing = lineDrawing ? 0.95 : clipArt ? 0.6 + 0.1 * e.imageType.clipArtType : e.imageType.clipArtType === 1 ? 0.3 : 0;
  const photo = 1 - drawing;
  const s = e.scene;
  let outdoorObj = 0;
  let indoorObj = 0;
  for (const [label, c] of labels) {
    if (OUTDOOR_OBJECTS.has(label)) outdoorObj = Math.max(outdoorObj, c);
    if (INDOOR_OBJECTS.has(label)) indoorObj = Math.max(indoorObj, c);
  }
  // Night: a dark photo whose dark part is sky or which has point lights; a dark indoor portrait
  // alone stays below 0.5 ("night" needs a night sky or lights).
  const night =
    (1 - frameFill) * (s.brightness < 0.3 ? ramp(s.dark, 0.25, 0.45) * (s.sky > 0.1 || s.brightSpots > 0.01 ? 1 : 0.45) * photo : 0);
  const largestFaceShare = faces.reduce((m, f) => Math.max(m, (f.box.width * f.box.height) / area), 0);
  // Text: many text-like blocks, or several lines of writing on a plain page.
  // Text blocks count on a page-like image (≥ 65 % of pixels at the local paper tone): grass,
  // gravel or stone also make bimodal blocks, but most of their pixels sit well below the bright
  // specks around them.
  const blocks = lineDrawing || s.page < 0.65 ? 0 : ramp(s.textBlocks, 0.25, 0.45) * (s.colorfulness < 0.35 ? 1 : 0.7);
  const text = Math.max(blocks, ramp(s.textLines, 2, 5) * (s.page >= 0.65 ? 0.95 : 0.6));
  // Bright grey at the top is overcast sky in a B&W landscape but paper on a page of text.
  const greyWeight = (e.color.isBWImg ? 1 : largestFaceShare > 0.02 ? 0.3 : 0.8) * (1 - text);
  const sky = s.sky - s.skyGrey + s.skyGrey * greyWeight;
  // Colour cues of a natural setting; a thing filling the frame (a green apple) is not one.
  const natural =
    (1 - frameFill) * Math.max(ramp(sky, 0.08, 0.25), ramp(s.vegetation, 0.08, 0.25), ramp(s.water, 0.15, 0.35), ramp(s.snow, 0.15, 0.35));
  const outdoor = photo * Math.max(natural, outdoorObj);
  const indoor = photo * Math.max(0, indoorObj - 0.5 * natural);
  return {
    labels,
    counts,
    persons,
    personConf,
    largestFaceShare,
    sky,
    men: adults.filter((f) => f.gender === 'Male').length,
    women: adults.filter((f) => f.gender === 'Female').length,
    children: faces.filter((f) => f.age < 13).length,
    babies: faces.filter((f) => f.age < 3).length,
    smiling: faces.filter((f) => f.smiling).length,
    glasses: faces.filter((f) => f.glasses).length,
    drawing,
    lineDrawing,
    clipArt,
    outdoor,
    indoor,
    night,
    text,
    classes,
    frameFill,
  };
}

/**
 * The classifier as a second opinion for the detector: a COCO thing the classifier names (a
 * close-up cat CenterNet misses) gets the classifier's confidence when that is higher, and counts
 * once when it reaches 0.5 and the detector found no instance.
 */
function secondOpinion(labels: Map<CocoLabel, number>, counts: Map<CocoLabel, number>, classes: ClassEvidence): void {
  for (const s of classes.subjects) {
    if (!s.coco || s.conf <= (labels.get(s.coco) ?? 0)) continue;
    labels.set(s.coco, s.conf);
    if (s.conf >= 0.5 && !counts.has(s.coco)) counts.set(s.coco, 1);
  }
}

/** How much a single thing fills the frame (see Derived.frameFill). */
function frameFilling(e: Evidence, labels: Map<CocoLabel, number>, classes: ClassEvidence): number {
  const area = e.width * e.height;
  let fill = 0;
  for (const o of e.objects) {
    if (o.label === 'person' || (labels.get(o.label) ?? 0) < 0.5) continue;
    fill = Math.max(fill, ramp((o.box.w * o.box.h) / area, 0.3, 0.6));
  }
  // The classifier gives no extent: its answer fills the frame only for things usually shot close
  // up, and not beside people (the tripod next to a cameraman).
  const people = e.faces.length > 0 || e.objects.some((o) => o.label === 'person' && (labels.get('person') ?? 0) >= 0.5);
  const thing = classes.subjects.find((s) => !s.scene && s.tags.some((t) => CLOSE_UP_KINDS.has(t)));
  if (thing && !people) fill = Math.max(fill, ramp(thing.conf, 0.5, 0.9));
  return fill;
}

/**
 * People the face search did not count: confident person boxes (calibrated ≥ 0.6, ≥ 1 % of the
 * image) with no detected face centre above them (within one box width to either side) and
 * that do not overlap another counted box by more than
 * 30 % (CenterNet often adds a partial box inside a person). Faces and boxes of the same people
 * are thus counted once.
 */
function extraPeople(e: Evidence): number {
  const area = e.width * e.height;
  const centres = e.faces.map((f) => [f.box.left + f.box.width / 2, f.box.top + f.box.height / 2] as const);
  const counted: DetectedObject['box'][] = [];
  let extra = 0;
  for (const o of e.objects) {
    if (o.label !== 'person' || objectConfidence(effectiveScore(e, o.score)) < 0.6 || (o.box.w * o.box.h) / area < 0.01) continue;
    // Loose association: CenterNet's person boxes are often narrow or start below the head.
    const hasFace = centres.some(([x, y]) => x >= o.box.x - o.box.w && x <= o.box.x + 2 * o.box.w && y <= o.box.y + o.box.h);
    if (counted.some((b) => overlapOfSmaller(b, o.box) > 0.3)) continue;
    counted.push(o.box);
    if (!hasFace) extra++;
  }
  return extra;
}

/** Intersection area over the smaller box's area. */
function overlapOfSmaller(a: DetectedObject['box'], b: DetectedObject['box']): number {
  const w = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
  return (w * h) / Math.max(1e-9, Math.min(a.w * a.h, b.w * b.h));
}
