import { FIELD_SIDE_PX, type PixelField } from '../pixels/pixel-field';
import { histogramQuantile } from '../pixels/histogram';
import type { RgbImage } from '../../inference';
import { measureRepetition } from './repetition';
import { measureBarcode } from './barcode';
import { measureQrCode } from './qr-code';
import { measureStarPoints } from './star-points';
import { measureTextLines } from './text-lines';

/**
 * Scene cues measured on the pixel field. Every value is a fraction of the image area (0..1)
 * unless stated; they feed categories, tags and captions. Colour classes are in Lab (see
 * docs/analysis.md for the exact boxes); position priors (sky above, water/snow below) stop a
 * blue shirt from counting as sky.
 */
export interface SceneCues {
  /** Smooth blue or bright-overcast pixels in the upper 60 % of the image. */
  sky: number;
  /** Green-to-olive pixels with some chroma: grass, leaves, trees. */
  vegetation: number;
  /** Blue/teal pixels in the lower half. */
  water: number;
  /** Very bright, nearly achromatic, smooth pixels in the lower half. */
  snow: number;
  /** Mean L* / 100. */
  brightness: number;
  /** Pixels with L* < 20. */
  dark: number;
  /** Bright saturated pixels on a dark image (lights, fire, fireworks). */
  brightSpots: number;
  /**
   * The widest spread of one RGB channel, 8-bit levels, between its 0.1st and 99.9th percentiles
   * (a level count, not a share): ≥ 100 for nearly every drawing (a page and its ink, or bright
   * fills) and every real night photo, a few dozen for a photo taken far too dark, whose few
   * quantised levels leave exactly equal neighbours and a small palette as a drawing's fills do,
   * and a smooth dark top that no one could tell from a night sky.
   */
  levelSpan: number;
  /** Warm (red-orange-yellow) bright saturated pixels. */
  warmGlow: number;
  /** Skin-tone pixels (hands, faces, bodies). */
  skin: number;
  /** Share of 8×8 blocks (the same share of a smaller image's picture) that look like text: bimodal, high contrast, mostly achromatic. */
  textBlocks: number;
  /** Lines of writing found on the page (text-lines.ts), 0 when not measured. */
  textLines: number;
  /** Share of the ink in lettering bands too tall for lines of a page (text-lines.ts), 0..1. */
  letteringInk: number;
  /** How many lettering bands (text-lines.ts). */
  letteringBands: number;
  /** Share of pixels at the page tone (text-lines.ts). */
  page: number;
  /** Points of light on a smooth background spread over the frame, per 10 000 px (star-points.ts), 0 when not measured. */
  starPoints: number;
  /** Share of the image a QR code covers, 0..1 (qr-code.ts), 0 when none is found or not measured. */
  qrCode: number;
  /** Share of the image an upright one-dimensional barcode covers, 0..1 (barcode.ts), 0 when none is found or not measured. */
  barcode: number;
  /** How strongly a motif repeats across the image, 0..1 (repetition.ts): drawn patterns ≥ 0.87. */
  repetition: number;
  /** Share of pixels on a strong local edge (grad > 12 L*). */
  edges: number;
  /** Share of pixels on long horizontal or vertical edge runs (buildings, furniture, screens). */
  straightEdges: number;
  /** Part of straightEdges on vertical runs (pillars, doors), 0..1 of straightEdges. */
  verticalShare: number;
  /** Sky pixels that are bright grey/white rather than blue (clouds, overcast), 0..1 of the image. */
  skyGrey: number;
  /** Sky pixels counted only as a dark image's night sky (smooth, L* < 30), 0..1 of the image. */
  skyDark: number;
  /** Colourfulness (Hasler–Süsstrunk), 0 for grey, ≈ 50+ for vivid images; divided by 100. */
  colorfulness: number;
  /**
   * Pixels whose every RGB channel is within UNIFORM_LEVELS of the image's mean colour: 1 for a
   * blank image (one flat colour, also JPEG-coded), far lower as soon as anything is drawn or
   * photographed on it (a very dark photo too: its few levels still span far more).
   */
  uniform: number;
}

/**
 * Largest difference per RGB channel (8-bit levels) of a pixel of the 160 px field counted as the
 * mean colour in `uniform`: above what JPEG leaves of a flat fill, below the spread of the darkest
 * photo that still shows something (a photo at 15 % exposure spans ≈ 40 levels). A distance in
 * Lab would not do: at low lightness whole photos fit within a few L* units.
 */
export const UNIFORM_LEVELS = 4;

function inBox(L: number, C: number, hue: number, box: { L: [number, number]; C: [number, number]; hue: [number, number] }): boolean {
  return L >= box.L[0] && L <= box.L[1] && C >= box.C[0] && C <= box.C[1] && hue >= box.hue[0] && hue <= box.hue[1];
}

/** Lab boxes of the colour classes used by the cues (L*, chroma, hue degrees). */
export const CUE_BOXES = {
  blueSky: { L: [45, 100], C: [8, 80], hue: [215, 290] },
  vegetation: { L: [12, 85], C: [12, 120], hue: [95, 175] },
  water: { L: [30, 80], C: [8, 80], hue: [180, 290] },
  skin: { L: [30, 88], C: [12, 45], hue: [25, 75] },
  warm: { L: [50, 100], C: [35, 140], hue: [20, 100] },
} as const satisfies Record<string, { L: [number, number]; C: [number, number]; hue: [number, number] }>;

/**
 * Share of vegetation-coloured pixels (CUE_BOXES.vegetation) from which a dark image is a shaded
 * green scene rather than a night scene: where the green-scene band of the rules starts.
 */
export const NIGHT_SKY_MAX_VEGETATION = 0.15;

/** Share of the pixels left out at each end of a channel's range in `levelSpan` (0.1 %). */
const SPAN_TAIL = 0.001;

/**
 * Measures all scene cues in one pass over the field (plus one pass of 8×8 blocks for text);
 * `mid` (the ≤ 320 px thumbnail) adds the text-line count, the star points, a QR code and a barcode.
 */
export function measureScene(f: PixelField, mid?: RgbImage): SceneCues {
  const lines = mid ? measureTextLines(mid) : { lines: 0, letteringInk: 0, letteringBands: 0, page: 0 };
  const { width: w, height: h } = f;
  const n = w * h;
  const straight = straightEdgeShare(f);
  let veg = 0,
    water = 0,
    snow = 0,
    sumL = 0,
    dark = 0,
    bright = 0,
    warm = 0,
    skin = 0,
    edges = 0;
  let rgSum = 0,
    ybSum = 0,
    rgSq = 0,
    ybSq = 0;
  // One 256-bin histogram per RGB channel, for levelSpan.
  const channelHist = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)] as const;
  for (let y = 0; y < h; y++) {
    const lower = y >= h * 0.5;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const L = f.L[i]!;
      const C = f.C[i]!;
      const hue = f.hue[i]!;
      const smooth = f.grad[i]! < 4;
      sumL += L;
      if (L < 20) dark++;
      if (f.grad[i]! > 12) edges++;
      if (inBox(L, C, hue, CUE_BOXES.vegetation)) veg++;
      if (lower && inBox(L, C, hue, CUE_BOXES.water)) water++;
      if (lower && smooth && L > 85 && C < 6) snow++;
      if (L > 60 && C > 30) bright++;
      if (inBox(L, C, hue, CUE_BOXES.warm)) warm++;
      if (inBox(L, C, hue, CUE_BOXES.skin)) skin++;
      const r = f.rgb[i * 3]!,
        g = f.rgb[i * 3 + 1]!,
        b = f.rgb[i * 3 + 2]!;
      channelHist[0][r]!++;
      channelHist[1][g]!++;
      channelHist[2][b]!++;
      const rg = r - g;
      const yb = 0.5 * (r + g) - b;
      rgSum += rg;
      ybSum += yb;
      rgSq += rg * rg;
      ybSq += yb * yb;
    }
  }
  // A dark image's sky is its smooth dark top (a night sky), unless it is a green scene: foliage
  // keeps its colour only in daylight, so a dark forest's canopy and trunks are shade, not sky.
  const skyParts = skyShare(f, sumL / n < 30 && veg / n < NIGHT_SKY_MAX_VEGETATION);
  const sd = (s: number, sq: number): number => Math.sqrt(Math.max(0, sq / n - (s / n) ** 2));
  const colorfulness = Math.hypot(sd(rgSum, rgSq), sd(ybSum, ybSq)) + 0.3 * Math.hypot(rgSum / n, ybSum / n);
  const brightness = sumL / n / 100;
  return {
    sky: skyParts.sky,
    skyGrey: skyParts.grey,
    skyDark: skyParts.dark,
    vegetation: veg / n,
    water: water / n,
    snow: snow / n,
    brightness,
    dark: dark / n,
    brightSpots: brightness < 0.3 ? bright / n : 0,
    warmGlow: warm / n,
    skin: skin / n,
    textBlocks: textBlockShare(f),
    textLines: lines.lines,
    letteringInk: lines.letteringInk,
    letteringBands: lines.letteringBands,
    page: lines.page,
    starPoints: mid ? measureStarPoints(mid) : 0,
    qrCode: mid ? measureQrCode(mid) : 0,
    barcode: mid ? measureBarcode(mid) : 0,
    repetition: measureRepetition(f),
    edges: edges / n,
    straightEdges: straight.all,
    verticalShare: straight.all > 0 ? straight.vertical / straight.all : 0,
    colorfulness: colorfulness / 100,
    uniform: uniformShare(f),
    levelSpan: widestSpan(channelHist),
  };
}

/** The widest spread between the SPAN_TAIL quantiles of the channels' histograms, 8-bit levels. */
function widestSpan(hists: readonly Uint32Array[]): number {
  return Math.max(...hists.map((h) => histogramQuantile(h, 1 - SPAN_TAIL) - histogramQuantile(h, SPAN_TAIL)));
}

/** Share of the field's pixels within UNIFORM_LEVELS of its mean colour in every channel. */
function uniformShare(f: PixelField): number {
  const n = f.width * f.height;
  const mean = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) mean[c]! += f.rgb[i * 3 + c]!;
  for (let c = 0; c < 3; c++) mean[c]! /= Math.max(1, n);
  let near = 0;
  for (let i = 0; i < n; i++) {
    const j = i * 3;
    if (
      Math.abs(f.rgb[j]! - mean[0]!) <= UNIFORM_LEVELS &&
      Math.abs(f.rgb[j + 1]! - mean[1]!) <= UNIFORM_LEVELS &&
      Math.abs(f.rgb[j + 2]! - mean[2]!) <= UNIFORM_LEVELS
    )
      near++;
  }
  return near / Math.max(1, n);
}

/** Text blocks: side and edge count (grad > 10 L*) on a full-size field, px of the field. */
const TEXT_BLOCK = { sidePx: 8, minEdgyPx: 8, minSidePx: 4 } as const;

/**
 * The blocks' side: 8 px on a field of FIELD_SIDE_PX, the same share of the picture on the field
 * of a smaller image (a thumbnail is its own field), so a block of a 96 px drawing does not take
 * in a whole dot, star or hexagon of it and read as a glyph.
 */
function textBlockSide(f: PixelField): number {
  const side = Math.max(f.width, f.height);
  if (side >= FIELD_SIDE_PX) return TEXT_BLOCK.sidePx;
  return Math.max(TEXT_BLOCK.minSidePx, Math.round((TEXT_BLOCK.sidePx * side) / FIELD_SIDE_PX));
}

/**
 * Text-like blocks: in an 8×8 block of the field (textBlockSide), strokes make the lightness bimodal (a dark and
 * a light population ≥ 25 L* apart, the dark one a minority of 8–45 %), most pixels achromatic,
 * and several edges. Handwriting, print, signs and maps all qualify; flat areas and photos of
 * textures rarely do.
 */
function textBlockShare(f: PixelField): number {
  const B = textBlockSide(f);
  const minEdgy = (TEXT_BLOCK.minEdgyPx * B * B) / (TEXT_BLOCK.sidePx * TEXT_BLOCK.sidePx);
  let text = 0;
  let blocks = 0;
  for (let by = 0; by + B <= f.height; by += B) {
    for (let bx = 0; bx + B <= f.width; bx += B) {
      blocks++;
      let min = 100,
        max = 0,
        chromatic = 0,
        edgy = 0;
      for (let y = by; y < by + B; y++) {
        for (let x = bx; x < bx + B; x++) {
          const i = y * f.width + x;
          const L = f.L[i]!;
          if (L < min) min = L;
          if (L > max) max = L;
          if (f.C[i]! > 15) chromatic++;
          if (f.grad[i]! > 10) edgy++;
        }
      }
      if (max - min < 25 || chromatic > B * B * 0.3 || edgy < minEdgy) continue;
      const mid = (min + max) / 2;
      let darkCount = 0;
      for (let y = by; y < by + B; y++) for (let x = bx; x < bx + B; x++) if (f.L[y * f.width + x]! < mid) darkCount++;
      const darkShare = darkCount / (B * B);
      if (darkShare >= 0.08 && darkShare <= 0.45) text++;
    }
  }
  return blocks ? text / blocks : 0;
}

/** Share of pixels on horizontal/vertical edge runs ≥ 6 px (architecture, furniture, screens). */
function straightEdgeShare(f: PixelField): { all: number; vertical: number } {
  const { width: w, height: h } = f;
  let onRuns = 0;
  const RUN = 6;
  // Horizontal edges: strong vertical gradient continuing along x.
  for (let y = 0; y + 1 < h; y++) {
    let run = 0;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (Math.abs(f.L[i]! - f.L[i + w]!) > 10) run++;
      else {
        if (run >= RUN) onRuns += run;
        run = 0;
      }
    }
    if (run >= RUN) onRuns += run;
  }
  const horizontal = onRuns;
  for (let x = 0; x + 1 < w; x++) {
    let run = 0;
    for (let y = 0; y < h; y++) {
      const i = y * w + x;
      if (Math.abs(f.L[i]! - f.L[i + 1]!) > 10) run++;
      else {
        if (run >= RUN) onRuns += run;
        run = 0;
      }
    }
    if (run >= RUN) onRuns += run;
  }
  return { all: onRuns / (w * h), vertical: (onRuns - horizontal) / (w * h) };
}

/**
 * Sky: pixels connected to the top edge through smooth (grad < 5 L*) sky-coloured pixels: blue
 * (CUE_BOXES.blueSky) or bright overcast grey (L* > 70, C < 10), within the upper 70 % of the
 * image; on a dark image (mean L* < 30) smooth dark pixels too (night sky). Connectivity to the top stops blue clothing or a white wall mid-image from counting.
 */
function skyShare(f: PixelField, night: boolean): { sky: number; grey: number; dark: number } {
  const { width: w, height: h } = f;
  const maxY = Math.floor(h * 0.7);
  const isSky = (i: number): boolean => {
    if (f.grad[i]! >= 5) return false;
    const L = f.L[i]!;
    const C = f.C[i]!;
    // At night the sky is the smooth dark region above everything else.
    return inBox(L, C, f.hue[i]!, CUE_BOXES.blueSky) || (L > 70 && C < 10) || (night && L < 30);
  };
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let x = 0; x < w; x++)
    if (isSky(x)) {
      seen[x] = 1;
      stack.push(x);
    }
  let count = 0;
  let grey = 0;
  let dark = 0;
  while (stack.length) {
    const i = stack.pop()!;
    count++;
    const L = f.L[i]!;
    if (L > 70 && f.C[i]! < 10) grey++;
    else if (L < 30) dark++;
    const x = i % w;
    const y = (i - x) / w;
    const next = [x > 0 ? i - 1 : -1, x + 1 < w ? i + 1 : -1, y > 0 ? i - w : -1, y + 1 < maxY ? i + w : -1];
    for (const j of next) {
      if (j >= 0 && !seen[j] && isSky(j)) {
        seen[j] = 1;
        stack.push(j);
      }
    }
  }
  return { sky: count / (w * h), grey: grey / (w * h), dark: dark / (w * h) };
}
