import { clamp01 } from '../../inference';
import type { ImageType } from '../../shared/spec';
import type { TextureStats } from '../pixels/pixel-field';
import type { InkStats } from './strokes';

/** Evidence for the ImageType feature (all 0..1 except colorBins90). */
export interface ImageTypeEvidence {
  texture: TextureStats;
  ink: InkStats;
  /** 90th-percentile Lab chroma of the image. */
  chromaP90: number;
  isBW: boolean;
  /** P(Drawing) of the nsfwjs classifier; undefined when the Adult model did not run. */
  drawingProb?: number;
  /** Lines of writing found (scene/text-lines.ts): a page of text is neither art nor drawing. */
  textLines?: number;
  /** P(photo) of the photo probe (photo-probe.ts); undefined when the classifier did not run. */
  photoProb?: number;
  /** The scene cue levelSpan (scene/cues.ts): the widest RGB channel spread, 8-bit levels. */
  levelSpan: number;
  /** The scene cue brightness: mean L* / 100. */
  brightness: number;
}

/** How the photo probe's P(photo) acts on the clip-art score: two ramps, each [from, to]. */
export interface PhotoProbeRule {
  veto: readonly [number, number];
  drawing: readonly [number, number];
}

/** The part of the evidence the clip-art score reads. */
export type ClipArtEvidence = Pick<
  ImageTypeEvidence,
  'texture' | 'isBW' | 'drawingProb' | 'textLines' | 'photoProb' | 'levelSpan' | 'brightness'
>;

/** Thresholds of the ImageType rules (docs/analysis.md). */
export const IMAGE_TYPE_RULES = {
  line: { minPaper: 0.55, maxMid: 0.12, minInk: 0.01, maxInk: 0.4, minThinInk: 0.45, maxChromaP90: 12, maxInkColour: 30 },
  /** clipArtType cut-offs on the clip-art score. */
  clip: { good: 0.7, normal: 0.45, ambiguous: 0.3 },
  /** From this many text lines the image is a page of text: no line drawing, clip-art score × 0.3. */
  textPageLines: 3,
  /**
   * A photo cut out on a plain background (a product shot, a sticker) has the background's flat
   * fills but a textured figure: figure.flat falling from `flat[1]` to `flat[0]` and figure.bins90
   * rising from `bins[0]` to `bins[1]` each ramp 0 → 1, and the clip-art score is × (1 − their
   * product). Measured on Tux Paint's stamps outside eval:unseen (photos figure.flat ≈ 0, 20–200
   * bins; cartoons 0.3–0.9) and 300 reference Open Clip Art drawings (docs/analysis.md "ImageType").
   */
  cutout: { flat: [0.04, 0.12], bins: [12, 24] },
  /**
   * The same test on lossy sources, stricter: JPEG ringing roughens a drawn figure too, so the
   * figure must be all but free of exactly flat pairs and hold a photo's palette. JPEG also
   * flattens a photo's smooth dark blocks (a night sky), so such cut-outs stay clip art. Set on
   * Tux Paint stamps outside eval:unseen whose PNG is a clear cut-out photo (265) or drawn (402)
   * and 300 Open Clip Art reference drawings, all JPEG-coded (docs/analysis.md "ImageType"):
   * photos rated clip art 132 → 35 of 265; drawings 274 → 252 of 300 at q80.
   */
  cutoutLossy: { flat: [0.01, 0.04], bins: [32, 64] },
  /**
   * A cut-out photo stands on a plain background when the outer band's exact-flat share rises
   * over this ramp (cut-outs measured 0.6–0.97; photos filling the frame 0–0.3): its background is
   * no scene (`isolatedFigure`).
   */
  plainBorder: [0.3, 0.6],
  /**
   * The photo probe (photo-probe.ts, P(photo) from the classifier's features) against the pixel
   * terms, which read flat fills and a plain page as synthetic: P(photo) rising over `veto`
   * scales the clip-art score down to 0 (a hammer on a flat blue card, a statue against a
   * JPEG-smoothed sky), and P(photo) below `drawing[1]` (down to `drawing[0]`) withdraws the
   * cut-out discount (a gradient-shaded drawing whose JPEG ringing looks like a textured figure).
   * Chosen on calibration images outside every eval (docs/analysis.md "ImageType").
   */
  photoProbe: { veto: [0.5, 0.9], drawing: [0.1, 0.3] },
  /**
   * A photo taken far too dark holds few levels (the scene cue levelSpan, 8-bit): quantised to them,
   * its neighbours are exactly equal and its palette small, as a drawing's fills are. On a dim
   * image (mean L* below `dim`) the clip-art score is × the span's ramp over `levels`: fixture
   * photos dimmed to 8 % of their levels span 16–22 (all clip art before, 0.65–0.9), at 12 %
   * 23–34, at 20 % 39–55. Not on a brighter one: a flat colour field with a small mark (a flag
   * whose emblem the renderer lost) has few levels too, and is a drawing. `levels[1]` is also
   * rules/bands.ts FEW_LEVELS, below which a dark top is no night sky; `dim` is the rules' band
   * brightness.dim.
   */
  underexposed: { levels: [24, 48], dim: 0.3 },
} as const;

/** 0 at or below `lo`, 1 at or above `hi`, linear between. */
const ramp = (x: number, lo: number, hi: number): number => clamp01((x - lo) / (hi - lo));

/**
 * Line drawing: mostly white paper with a little dark ink in thin strokes and almost no
 * in-between tones or colour. A filled silhouette fails the thin-stroke test, a greyscale photo
 * the paper and mid-tone tests, a page of writing (≥ textPageLines lines) the text test, and a
 * small coloured cartoon on a white page the ink-colour test (its image-wide chroma is low).
 */
export function isLineDrawing(e: ImageTypeEvidence): boolean {
  const r = IMAGE_TYPE_RULES.line;
  const { paper, mid, ink, thinInk } = e.ink;
  if ((e.textLines ?? 0) >= IMAGE_TYPE_RULES.textPageLines) return false;
  return (
    paper >= r.minPaper &&
    mid <= r.maxMid &&
    ink >= r.minInk &&
    ink <= r.maxInk &&
    thinInk >= r.minThinInk &&
    e.chromaP90 <= r.maxChromaP90 &&
    e.ink.inkColour <= r.maxInkColour
  );
}

/**
 * Clip-art score 0..1. Synthetic graphics have exactly flat fills (camera noise, gradients and
 * JPEG make photos' neighbours differ by a level or two), a small palette and usually a plain
 * synthetic background:
 *   (0.45·flat + 0.25·palette + 0.2·plain border + 0.1·P(Drawing)) × (1 − cut-out photo × w) × levels × (1 − photo veto)
 * flat = (flatFraction − 0.2)/0.35, palette = (80 − colorBins90)/60 (for greyscale images, where
 * the palette is small anyway, the flat term stands in), plain border = (borderFlat − 0.2)/0.3,
 * where the flat shares count exactly equal neighbours; w and the veto come from the photo
 * probe's P(photo) (IMAGE_TYPE_RULES.photoProbe; docs/analysis.md "ImageType"), and levels ramps
 * up over IMAGE_TYPE_RULES.underexposed on a dim image (a photo taken far too dark is no drawing).
 */
export function clipArtScore(e: ClipArtEvidence, rules: { photoProbe: PhotoProbeRule } = IMAGE_TYPE_RULES): number {
  return pixelClipArtScore(e, rules) * (1 - photoVeto(e.photoProb, rules));
}

/** The clip-art score before the photo probe's veto: what the pixel terms (and the cut-out test) read. */
function pixelClipArtScore(e: ClipArtEvidence, rules: { photoProbe: PhotoProbeRule }): number {
  const flat = clamp01((e.texture.flatFraction - 0.2) / 0.35);
  const palette = e.isBW ? flat : clamp01((80 - e.texture.colorBins90) / 60);
  const border = clamp01((e.texture.borderFlat - 0.2) / 0.3);
  const { drawing } = rules.photoProbe;
  // Without the probe (the classifier did not run) the cut-out test applies as it stands.
  const cutoutWeight = e.photoProb === undefined ? 1 : ramp(e.photoProb, drawing[0], drawing[1]);
  const { levels, dim } = IMAGE_TYPE_RULES.underexposed;
  const levelsTerm = e.brightness < dim ? ramp(e.levelSpan, levels[0], levels[1]) : 1;
  const score =
    (0.45 * flat + 0.25 * palette + 0.2 * border + 0.1 * (e.drawingProb ?? 0)) * (1 - cutoutPhoto(e.texture) * cutoutWeight) * levelsTerm;
  return (e.textLines ?? 0) >= IMAGE_TYPE_RULES.textPageLines ? 0.3 * score : score;
}

/** 0..1: how far the photo probe overrules the pixel terms (0 without the probe). */
function photoVeto(photoProb: number | undefined, rules: { photoProbe: PhotoProbeRule }): number {
  const { veto } = rules.photoProbe;
  return photoProb === undefined ? 0 : ramp(photoProb, veto[0], veto[1]);
}

/** 0..1: how much the image looks like a photo cut out on a plain background (IMAGE_TYPE_RULES.cutout, cutoutLossy). */
export function cutoutPhoto(t: TextureStats): number {
  // JPEG ringing textures a drawn figure too: with the lossless ramps the test would take clip art
  // from 11 % of the held-out Open Clip Art sample at JPEG q80, so lossy sources get stricter ones.
  const { flat, bins } = t.lossy ? IMAGE_TYPE_RULES.cutoutLossy : IMAGE_TYPE_RULES.cutout;
  const textured = clamp01((flat[1] - t.figure.flat) / (flat[1] - flat[0]));
  const rich = clamp01((t.figure.bins90 - bins[0]) / (bins[1] - bins[0]));
  return textured * rich;
}

/**
 * 0..1: a photographed thing on a plain page (a product shot). Its page is not sky, snow or a
 * setting (rules/derive.ts frameFill). The thing is photographed when the cut-out test says so
 * (× the plain-border ramp), or when the photo probe overruled a clip-art verdict of the pixel
 * terms: smooth metal or lacquer on a studio backdrop leaves the cut-out test no texture to find.
 * Then the flat fills must surround the figure (the ramp on the band's least flat side): a statue
 * or a windmill against a flat sky stands on ground, and keeps its outdoor setting.
 */
export function isolatedFigure(e: ClipArtEvidence): number {
  const [lo, hi] = IMAGE_TYPE_RULES.plainBorder;
  const c = IMAGE_TYPE_RULES.clip;
  const cutout = cutoutPhoto(e.texture) * ramp(e.texture.borderFlat, lo, hi);
  const overruled = photoVeto(e.photoProb, IMAGE_TYPE_RULES) * ramp(pixelClipArtScore(e, IMAGE_TYPE_RULES), c.ambiguous, c.normal);
  return Math.max(cutout, overruled * ramp(e.texture.borderFlatLeast, lo, hi));
}

/** The ImageType feature from pixel evidence (and the drawing and photo probabilities when available). */
export function classifyImageType(e: ImageTypeEvidence): ImageType & { clipArtScore: number; isolatedFigure: number } {
  const s = clipArtScore(e);
  const c = IMAGE_TYPE_RULES.clip;
  const clipArtType = s >= c.good ? 3 : s >= c.normal ? 2 : s >= c.ambiguous ? 1 : 0;
  return { clipArtType, lineDrawingType: isLineDrawing(e) ? 1 : 0, clipArtScore: s, isolatedFigure: isolatedFigure(e) };
}
