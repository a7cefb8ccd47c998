import type { Box } from '../../inference';
import { overlapOfSmaller } from '../../inference/tensor';
import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import type { DetectedObject } from '../objects/types';
import { band, holds } from './bands';
import { acceptedChart, type AcceptedChart } from './charts';
import { calibrate, classEvidence, CLOSE_UP_KINDS, PRESENT, type Calibration, type ClassEvidence } from './classes';
import { headsNotAnimals } from './heads';
import { classifierVeto, regionOpinion, secondOpinion } from './opinions';
import { ANIMALS, INDOOR_OBJECTS, OUTDOOR_OBJECTS } from './vocab';

/**
 * Detector-score calibration: raw CenterNet peak scores are mapped piecewise-linearly so that
 * 0.5 sits at the score where detections on real photos become mostly right (`present`), and
 * the floor below which nothing is reported (`floor`). See docs/analysis.md.
 */
export const OBJECT_CALIBRATION = { floor: 0.25, present: 0.4, sure: 0.7, slopeAboveSure: 0.3 } as const satisfies Calibration;

/**
 * Raw-score handicap of detections in clip art and line drawings. The detector learnt from photos;
 * on drawings its raw 0.4–0.55 detections are mostly wrong (stars read as toilets, maps as
 * kites): on `npm run eval:unseen`'s 240 drawings, 19 of 22 tagged images were wrong without the
 * handicap, 2 of 5 with it. Drawings therefore need a raw 0.55 to count as present.
 */
export const DRAWING_SCORE_SHIFT = 0.15;

/** The raw score the calibration sees: handicapped on drawings. */
function effectiveScore(e: Evidence, raw: number): number {
  const drawing = e.imageType.lineDrawingType === 1 || e.imageType.clipArtType >= CLIP_ART_TYPE.clipArt;
  return drawing ? raw - DRAWING_SCORE_SHIFT : raw;
}

/** Calibrated 0..1 confidence of a raw detector score (0.5 ≈ present). */
export function objectConfidence(raw: number): number {
  return calibrate(raw, OBJECT_CALIBRATION);
}

/** Face ages (years) of the people words: baby below `baby`, child below `child`, adult from `adult`. */
export const AGE_YEARS = { baby: 3, child: 13, adult: 18 } as const;

/** Person confidence from faces: base + span × the best face's detector confidence. */
export const FACE_PERSON_CONF = { base: 0.6, span: 0.39 } as const;

/**
 * Drawing score by image type: line drawings almost surely not photos; clip art base + perType ×
 * clipArtType (type 2 → 0.8, 3 → 0.9); "ambiguous" clip art (type 1) a little.
 */
export const DRAWING_SCORE = { lineDrawing: 0.95, clipArtBase: 0.6, clipArtPerType: 0.1, ambiguous: 0.3 } as const;
/** clipArtType from which an image is clip art, and the "ambiguous" type. */
export const CLIP_ART_TYPE = { clipArt: 2, ambiguous: 1 } as const;

/** Night without a night sky or point lights (a dark indoor portrait) stays below 0.5. */
export const NIGHT_WITHOUT_SKY_OR_LIGHTS = 0.45;

/** Text weights: colourful text blocks, and text lines on / off a page-like image. */
export const TEXT_WEIGHT = { colourfulBlocks: 0.7, linesOnPage: 0.95, linesOffPage: 0.6 } as const;

/**
 * Weight of the bright-grey ("overcast") sky part in the effective sky: full in B&W photos, low
 * behind a portrait face (studio backdrops and walls are white too), else most of it.
 */
export const GREY_SKY_WEIGHT = { bw: 1, portrait: 0.3, colour: 0.8 } as const;

/** Natural cues lower the indoor score by this × the natural score (a window view stays indoors). */
export const INDOOR_NATURAL_PENALTY = 0.5;

/**
 * Extra people from person boxes: calibrated ≥ minConf, ≥ minShare of the image, not overlapping
 * an already counted box by more than maxOverlap of the smaller one.
 */
export const PERSON_BOX = { minConf: 0.6, minShare: 0.01, maxOverlap: 0.3, faceReachWidths: 1 } as const;

/** Quantities shared by the category, tag and caption rules, derived once from the evidence. */
export interface Derived {
  /** Calibrated confidence per detected label (max over instances). */
  labels: Map<CocoLabel, number>;
  /** Instances per label with calibrated confidence ≥ 0.5. */
  counts: Map<CocoLabel, number>;
  /**
   * Located things: the detector's boxes plus segmented regions (photos) of labels the detector
   * did not box, each region with its confidence as score; for the caption's supports and subjects.
   */
  things: DetectedObject[];
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
   * Vegetation-coloured share that counts as greenery: none in a scene the classifier sees
   * underwater (× 1 − its "underwater" word: a coral reef's algae and green water are no grass).
   */
  vegetation: number;
  /** Blue/teal share of the lower half (the water cue); 0 on a page of writing, whose background is paper. */
  water: number;
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
  /**
   * 0..1: a drawn pattern, a motif repeating in both directions across the image (checks, dots,
   * tiles, a grid, bricks; not stripes): drawing × band repetition.pattern. A photographed one (a
   * brick wall, a tiled floor) is a photo of a thing and is left to the models.
   */
  pattern: number;
  /**
   * 0..1: drawn lettering, most of the image's ink in bands of lettering too tall for lines of a
   * page (a word mark, a banner, a heading): drawing × band letteringInk.most.
   */
  lettering: number;
  /**
   * 0..1: a photo of the night sky full of stars (or a deep-sky photo: a galaxy, a nebula, a
   * cluster among stars): points of light spread over a mostly dark frame, band starPoints.field
   * × band dark.starField. Stars are not lines of writing, and the photo-trained classifier reads
   * a glowing nebula as a nematode or a jellyfish: its words count at TEXT_PAGE_CLASS_FACTOR.
   */
  starField: number;
  /** 0..1: a QR code is what the image shows (band qrCode.main); a QR code anywhere is test qrCode.found. */
  qrCode: number;
  /** 0..1: a one-dimensional barcode is what the image shows (band barcode.main); one anywhere is test barcode.found. */
  barcode: number;
  /** The chart the reference charts name (rules/charts.ts), if any, unless a page of text is surer. */
  chart?: AcceptedChart;
  /** The classifier's words, categories and subjects (empty when it did not run, or on a chart). */
  classes: ClassEvidence;
  /**
   * 0..1: a thing fills the frame (a big confident detected box, band boxShare.fill, a close-up
   * face, band faceShare.fill, or a thing of a close-up kind the classifier names, band
   * closeUpConf.fill, in a photo without people), or stands alone cut out on a plain page
   * (ImageType isolatedFigure).
   * Colour-only scene words (grass, sky, night) are scaled by 1 − frameFill: a close-up of a
   * green apple is not a grassy field.
   */
  frameFill: number;
  /**
   * frameFill by things other than animals: the water tag gives way to it (the blue cloth under a
   * pair of tweezers is no water), not to animals, which swim, wade and stand at the shore.
   */
  objectFill: number;
}

/** Derives the shared rule inputs. */
export function derive(evidence: Evidence): Derived {
  // A close-up face's head is no cat, and the classifier's dog breed on it is the face (heads.ts).
  const e = headsNotAnimals(evidence);
  const labels = new Map<CocoLabel, number>();
  const counts = new Map<CocoLabel, number>();
  for (const o of e.objects) {
    const c = objectConfidence(effectiveScore(e, o.score));
    labels.set(o.label, Math.max(labels.get(o.label) ?? 0, c));
    if (c >= PRESENT) counts.set(o.label, (counts.get(o.label) ?? 0) + 1);
  }
  const detected = new Map(labels);
  const chartSeen = acceptedChart(e.chart);
  // On a chart the classifier's things (a ruler, a crossword) and the drawing vocabulary's are
  // misreadings of axes, bars and lettering.
  const classes = classEvidence(chartSeen ? { ...e, classes: undefined, drawingVotes: undefined } : e);
  secondOpinion(labels, counts, classes);
  const things = [...e.objects, ...regionOpinion(e, labels, counts)];
  const misnamed = classifierVeto(e, labels, counts, classes, detected);
  const area = e.width * e.height;
  const faces = e.faces;
  const largestFaceShare = faces.reduce((m, f) => Math.max(m, (f.box.width * f.box.height) / area), 0);
  const frameFill = frameFilling(e, labels, classes, largestFaceShare, true);
  const objectFill = frameFilling(e, labels, classes, largestFaceShare, false);
  // Person boxes the classifier vetoed (an ape) count nobody.
  const persons = faces.length + ((labels.get('person') ?? 0) >= PRESENT ? extraPeople(e) : 0);
  const faceConf = faces.reduce((m, f) => Math.max(m, f.confidence), 0);
  const personConf = Math.max(labels.get('person') ?? 0, faces.length ? FACE_PERSON_CONF.base + FACE_PERSON_CONF.span * faceConf : 0);
  const adults = faces.filter((f) => f.age >= AGE_YEARS.adult);
  const lineDrawing = e.imageType.lineDrawingType === 1;
  const clipArt = e.imageType.clipArtType >= CLIP_ART_TYPE.clipArt;
  // Photos (clipArtType 0) are fully photos; "ambiguous" (1) counts as a little drawing.
  const D = DRAWING_SCORE;
  const drawing = lineDrawing
    ? D.lineDrawing
    : clipArt
      ? D.clipArtBase + D.clipArtPerType * e.imageType.clipArtType
      : e.imageType.clipArtType === CLIP_ART_TYPE.ambiguous
        ? D.ambiguous
        : 0;
  const photo = 1 - drawing;
  const s = e.scene;
  let outdoorObj = 0;
  let indoorObj = 0;
  for (const [label, named] of labels) {
    // A box the veto took for the classifier's animal misnamed (a porcupine boxed as a bear) keeps
    // its detector confidence for the setting: its name was wrong, not the animal it boxed.
    const c = misnamed.has(label) ? (detected.get(label) ?? named) : named;
    if (OUTDOOR_OBJECTS.has(label)) outdoorObj = Math.max(outdoorObj, c);
    if (INDOOR_OBJECTS.has(label)) indoorObj = Math.max(indoorObj, c);
  }
  // Text: many text-like blocks, or several lines of writing on a plain page.
  // Text blocks count on a page-like image (test 'page.yes'): grass, gravel or stone also make
  // bimodal blocks, but most of their pixels sit well below the bright specks around them.
  const page = holds('page.yes', s.page);
  const blocks =
    lineDrawing || !page
      ? 0
      : band('textBlocks.page', s.textBlocks) * (holds('colorfulness.plainPage', s.colorfulness) ? 1 : TEXT_WEIGHT.colourfulBlocks);
  // Rows of stars pass for lines of writing (a deep-sky photo was "a page of text" at 0.95), and
  // so do the bars of a barcode lying on its side.
  const starField = band('starPoints.field', s.starPoints) * band('dark.starField', s.dark);
  const barcode = band('barcode.main', s.barcode);
  const qrCode = band('qrCode.main', s.qrCode);
  const text =
    Math.max(blocks, band('textLines.page', s.textLines) * (page ? TEXT_WEIGHT.linesOnPage : TEXT_WEIGHT.linesOffPage)) *
    (1 - starField) *
    (1 - barcode);
  // A page of writing surer than the chart reading is a page (a handwritten page sits near the
  // reference charts: chart 0.53, text 1.0); charts' axis labels and titles keep text low.
  const chart = chartSeen && (text < PRESENT || chartSeen.conf >= text) ? chartSeen : undefined;
  // Bright grey at the top is overcast sky in a B&W landscape but paper on a page of text. On a
  // page-like image that reads as text (the caption's "a page of text") it is all paper, however
  // few its lines (a handwritten list on ruled paper: text 0.63); elsewhere the text discounts it.
  const pageOfText = page && text >= PRESENT;
  // A printed code's white is paper too (a barcode's quiet zone read as overcast sky).
  const paper = pageOfText || Math.max(qrCode, barcode) >= PRESENT ? 1 : text;
  // Night: a dark photo whose dark part is sky or which has point lights; a dark indoor portrait
  // alone stays below 0.5 ("night" needs a night sky or lights). A green scene is not night
  // however dark: foliage keeps its colour only in daylight (a shaded forest's trunks pass for a
  // night sky and its sunlit leaves for lights; at night a camera sees little chroma in leaves).
  // The dark behind a portrait face is a backdrop (a dim room, a studio), not a night sky: only
  // lights make such a photo a night scene (a flash portrait outdoors at night looks the same and
  // is not called night either). So is the dark top of a photo taken far too dark (few levels):
  // a cat in a dim room looks the same as one under the night sky.
  const portrait = holds('face.portrait', largestFaceShare);
  // The smooth dark top of a dark page of writing (a dark-mode screenshot, a code editor) is its
  // paper, not a night sky, and such a page is no night scene.
  const skyDark = portrait || holds('levelSpan.few', s.levelSpan) || pageOfText ? s.skyDark : 0;
  const nightSkyOrLights = holds('skyPixels.night', s.sky - skyDark) || holds('brightSpots.pointLights', s.brightSpots);
  const night =
    (pageOfText ? 0 : 1) *
    (1 - frameFill) *
    (1 - band('vegetation.green', s.vegetation)) *
    (holds('brightness.dim', s.brightness) ? band('dark.night', s.dark) * (nightSkyOrLights ? 1 : NIGHT_WITHOUT_SKY_OR_LIGHTS) * photo : 0);
  const G = GREY_SKY_WEIGHT;
  const greyWeight = (e.color.isBWImg ? G.bw : portrait ? G.portrait : G.colour) * (1 - paper);
  // The background of a page of writing is paper whatever its colour: a presentation slide's blue
  // gradient was sky and water ("outdoor" 1.0), a green one would be grass.
  const sky = pageOfText ? 0 : s.sky - skyDark - s.skyGrey + s.skyGrey * greyWeight;
  const water = pageOfText ? 0 : s.water;
  const greenery = pageOfText ? 0 : s.vegetation;
  // Colour cues of a natural setting; a thing filling the frame (a green apple) is not one. The
  // white of a page of writing (a typed page, a screenshot, a table) is paper, not snow.
  const snow = band('snow.natural', s.snow) * (1 - paper);
  const natural =
    (1 - frameFill) * Math.max(band('sky.natural', sky), band('vegetation.natural', greenery), band('water.body', water), snow);
  const outdoor = photo * Math.max(natural, outdoorObj);
  const indoor = photo * Math.max(0, indoorObj - INDOOR_NATURAL_PENALTY * natural);
  return {
    labels,
    counts,
    things,
    persons,
    personConf,
    largestFaceShare,
    sky,
    vegetation: greenery * (1 - (classes.words.get('underwater') ?? 0)),
    water,
    men: adults.filter((f) => f.gender === 'Male').length,
    women: adults.filter((f) => f.gender === 'Female').length,
    children: faces.filter((f) => f.age < AGE_YEARS.child).length,
    babies: faces.filter((f) => f.age < AGE_YEARS.baby).length,
    smiling: faces.filter((f) => f.smiling).length,
    glasses: faces.filter((f) => f.glasses).length,
    drawing,
    lineDrawing,
    clipArt,
    outdoor,
    indoor,
    night,
    text,
    pattern: drawing * band('repetition.pattern', s.repetition),
    lettering: drawing * band('letteringInk.most', s.letteringInk),
    starField,
    qrCode,
    barcode,
    chart,
    classes,
    frameFill,
    objectFill,
  };
}

/** How much a single thing fills the frame (see Derived.frameFill; without animals Derived.objectFill). */
function frameFilling(
  e: Evidence,
  labels: Map<CocoLabel, number>,
  classes: ClassEvidence,
  largestFaceShare: number,
  withAnimals: boolean,
): number {
  const area = e.width * e.height;
  const counts = (label: CocoLabel): boolean =>
    label !== 'person' && (labels.get(label) ?? 0) >= PRESENT && (withAnimals || !ANIMALS.has(label));
  let fill = 0;
  for (const o of e.objects) {
    if (!counts(o.label)) continue;
    fill = Math.max(fill, band('boxShare.fill', (o.box.width * o.box.height) / area));
  }
  // The classifier gives no extent: its answer fills the frame only for things usually shot close
  // up, and not beside people (the tripod next to a cameraman).
  // A segmented thing's own pixels say how much of the frame it fills.
  for (const r of e.subject?.regions ?? []) if (counts(r.label)) fill = Math.max(fill, band('maskShare.fill', r.share));
  // A close-up face is the picture: a blue backdrop behind it is no sky, a dark one no night.
  fill = Math.max(fill, band('faceShare.fill', largestFaceShare));
  const people = e.faces.length > 0 || e.objects.some((o) => o.label === 'person' && (labels.get('person') ?? 0) >= PRESENT);
  const thing = classes.subjects.find((s) => !s.scene && (withAnimals || !s.animal) && s.tags.some((t) => CLOSE_UP_KINDS.has(t)));
  // An object kind summed over its classes counts too (a hammer 0.68 beside a hatchet is surely a
  // tool); not "animal": animals unsure one by one stand in a landscape as often as close up.
  const kind = Math.max(0, ...[...CLOSE_UP_KINDS].filter((k) => k !== 'animal').map((k) => classes.words.get(k) ?? 0));
  if (!people) fill = Math.max(fill, band('closeUpConf.fill', Math.max(thing?.conf ?? 0, kind)));
  // A photographed thing cut out on a plain page is the whole picture: the page is no scene.
  return Math.max(fill, e.imageType.isolatedFigure ?? 0);
}

/**
 * People the face search did not count: confident person boxes (PERSON_BOX) with no detected face
 * centre above them (within faceReachWidths box widths to either side) and that do not overlap
 * another counted box by more than maxOverlap (CenterNet often adds a partial box inside a person). Faces and boxes of the same people
 * are thus counted once.
 */
function extraPeople(e: Evidence): number {
  const area = e.width * e.height;
  const centres = e.faces.map((f) => [f.box.left + f.box.width / 2, f.box.top + f.box.height / 2] as const);
  const counted: Box[] = [];
  let extra = 0;
  for (const o of e.objects) {
    if (o.label !== 'person' || objectConfidence(effectiveScore(e, o.score)) < PERSON_BOX.minConf) continue;
    if ((o.box.width * o.box.height) / area < PERSON_BOX.minShare) continue;
    // Loose association: CenterNet's person boxes are often narrow or start below the head.
    const reach = PERSON_BOX.faceReachWidths;
    const hasFace = centres.some(
      ([x, y]) => x >= o.box.left - reach * o.box.width && x <= o.box.left + (1 + reach) * o.box.width && y <= o.box.top + o.box.height,
    );
    if (counted.some((b) => overlapOfSmaller(b, o.box) > PERSON_BOX.maxOverlap)) continue;
    counted.push(o.box);
    if (!hasFace) extra++;
  }
  return extra;
}
