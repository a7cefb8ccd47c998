import type { Evidence } from '../evidence';
import type { Derived } from './derive';

/** A number the rules read, from the evidence or the derived values (derive.ts). */
export interface Quantity {
  of(e: Evidence, d: Derived): number;
  /** What it measures and its unit, for the generated docs. */
  what: string;
}

/** A flag as a quantity: 1 when set, 0 otherwise. */
const flag = (b: boolean): number => (b ? 1 : 0);
/** Denominator floor of cloudShare (an image without sky has no cloud share). */
const MIN_SKY_SHARE = 1e-6;

/**
 * The quantities the bands and tests of bands.ts are defined over. Scene cues are fractions of the
 * image (analysis/scene/cues.ts) unless said; derived scores are 0..1 (derive.ts).
 */
export const QUANTITIES = {
  // Derived scores (derive.ts).
  photo: { of: (_e, d) => 1 - d.drawing, what: '1 − drawing score: how much the image is a photo' },
  open: {
    of: (_e, d) => (1 - d.drawing) * (1 - d.frameFill),
    what: 'photo × (1 − frameFill): a photo not filled by one thing, where colour-only scene words apply',
  },
  openWater: {
    of: (_e, d) => (1 - d.drawing) * (1 - d.objectFill),
    what: 'photo × (1 − objectFill): a photo not filled by one object or face, where the water colour cue applies',
  },
  drawing: { of: (_e, d) => d.drawing, what: 'drawing score from the ImageType (DRAWING_SCORE)' },
  lineDrawing: { of: (_e, d) => flag(d.lineDrawing), what: '1 for a line drawing' },
  clipArt: { of: (_e, d) => flag(d.clipArt), what: '1 for clip art (clipArtType ≥ 2)' },
  clipArtType: { of: (e) => e.imageType.clipArtType, what: 'the ImageType clipArtType, 0..3' },
  isolatedFigure: {
    of: (e) => e.imageType.isolatedFigure ?? 0,
    what: 'a photographed thing cut out on a plain page (ImageType isolatedFigure), 0..1',
  },
  bw: { of: (e) => flag(e.color.isBWImg), what: '1 for a black-and-white image (isBWImg)' },
  personConf: { of: (_e, d) => d.personConf, what: 'confidence that a person is present' },
  persons: { of: (_e, d) => d.persons, what: 'people counted (faces plus faceless person boxes)' },
  children: { of: (_e, d) => d.children, what: 'faces under the child age' },
  babies: { of: (_e, d) => d.babies, what: 'faces under the baby age' },
  faces: { of: (e) => e.faces.length, what: 'detected faces' },
  faceShare: { of: (_e, d) => d.largestFaceShare, what: 'largest face area / image area' },
  personBox: { of: (_e, d) => d.labels.get('person') ?? 0, what: 'calibrated confidence of the best person box' },
  objectKinds: {
    of: (_e, d) => [...d.counts.keys()].filter((l) => l !== 'person').length,
    what: 'distinct confidently detected labels other than person',
  },
  labelKinds: { of: (_e, d) => d.labels.size, what: 'distinct detected labels, at any confidence' },
  indoor: { of: (_e, d) => d.indoor, what: 'indoor score' },
  outdoor: { of: (_e, d) => d.outdoor, what: 'outdoor score' },
  night: { of: (_e, d) => d.night, what: 'night score' },
  text: { of: (_e, d) => d.text, what: 'text score' },
  pattern: { of: (_e, d) => d.pattern, what: 'drawn pattern score (drawing × band repetition.pattern)' },
  qrCodeMain: { of: (_e, d) => d.qrCode, what: 'a QR code is what the image shows (band qrCode.main)' },
  barcodeMain: { of: (_e, d) => d.barcode, what: 'a barcode is what the image shows (band barcode.main)' },
  starField: { of: (_e, d) => d.starField, what: 'star field score (band starPoints.field × band dark.starField)' },
  lettering: { of: (_e, d) => d.lettering, what: 'drawn lettering score (drawing × band letteringInk.most)' },
  openSky: { of: (_e, d) => d.sky * (1 - d.frameFill), what: 'sky × (1 − frameFill): sky not hidden by a close-up thing' },
  sky: { of: (_e, d) => d.sky, what: 'effective sky share (blue sky, plus weighted bright-grey sky; derive.ts)' },
  // Pixel cues (analysis/scene/cues.ts).
  vegetation: {
    of: (_e, d) => d.vegetation,
    what: 'green vegetation pixels, × (1 − the classifier\'s "underwater" confidence): underwater green is no grass',
  },
  water: { of: (_e, d) => d.water, what: 'blue/teal pixels in the lower half (0 on a page of writing: derive.ts)' },
  snow: { of: (e) => e.scene.snow, what: 'smooth very bright grey pixels in the lower half' },
  brightness: { of: (e) => e.scene.brightness, what: 'mean L*/100' },
  dark: { of: (e) => e.scene.dark, what: 'pixels with L* < 20' },
  brightSpots: { of: (e) => e.scene.brightSpots, what: 'bright saturated pixels on a dark image' },
  warmGlow: { of: (e) => e.scene.warmGlow, what: 'warm bright saturated pixels' },
  skin: { of: (e) => e.scene.skin, what: 'skin-tone pixels' },
  skinOrGlow: { of: (e) => e.scene.skin + e.scene.warmGlow, what: 'skin plus warm glow (sand and sun)' },
  skyPixels: { of: (e) => e.scene.sky, what: 'sky pixels, blue or grey (before the grey weighting of `sky`)' },
  textBlocks: { of: (e) => e.scene.textBlocks, what: 'text-like 8×8 blocks' },
  textLines: { of: (e) => e.scene.textLines, what: 'lines of writing found (a count)' },
  repetition: { of: (e) => e.scene.repetition, what: 'how strongly a motif repeats across the image, 0..1 (scene/repetition.ts)' },
  letteringInk: {
    of: (e) => e.scene.letteringInk,
    what: 'share of the ink in bands of lettering too tall for lines of a page, 0..1 (scene/text-lines.ts)',
  },
  page: { of: (e) => e.scene.page, what: 'pixels at the local paper tone' },
  qrCode: { of: (e) => e.scene.qrCode, what: 'share of the image a QR code covers, 0..1 (scene/qr-code.ts)' },
  barcode: { of: (e) => e.scene.barcode, what: 'share of the image an upright one-dimensional barcode covers, 0..1 (scene/barcode.ts)' },
  starPoints: {
    of: (e) => e.scene.starPoints,
    what: 'points of light on a smooth background spread over the frame, per 10 000 px (scene/star-points.ts)',
  },
  edges: { of: (e) => e.scene.edges, what: 'pixels on a strong edge (ΔL* > 12)' },
  straightEdges: { of: (e) => e.scene.straightEdges, what: 'pixels on long horizontal or vertical edge runs' },
  verticalShare: { of: (e) => e.scene.verticalShare, what: 'vertical part of the straight edges (0..1 of them)' },
  horizontalShare: { of: (e) => 1 - e.scene.verticalShare, what: 'horizontal part of the straight edges (0..1 of them)' },
  colorfulness: { of: (e) => e.scene.colorfulness, what: 'Hasler–Süsstrunk colourfulness / 100' },
  levelSpan: { of: (e) => e.scene.levelSpan, what: 'widest RGB channel spread between its 0.1st and 99.9th percentiles, 8-bit levels' },
  uniform: { of: (e) => e.scene.uniform, what: 'share of pixels within UNIFORM_LEVELS of the mean colour in every RGB channel' },
  cloudShare: {
    of: (e) => e.scene.skyGrey / Math.max(e.scene.sky, MIN_SKY_SHARE),
    what: 'bright-grey part of the sky pixels (0..1 of the sky)',
  },
  blueSky: { of: (e) => e.scene.sky - e.scene.skyGrey, what: 'blue (not grey) sky pixels' },
  chromaP50: { of: (e) => e.chroma.p50, what: 'median Lab chroma' },
  chromaP90: { of: (e) => e.chroma.p90, what: '90th-percentile Lab chroma' },
} as const satisfies Record<string, Quantity>;

export type QuantityName = keyof typeof QUANTITIES;
