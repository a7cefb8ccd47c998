import { histogramQuantile } from '../pixels/histogram';
import { maxFilter } from '../pixels/window-filters';
import { toGray } from '../pixels/thumbnail';
import { levelled, skewDegrees } from './skew';
import type { RgbImage } from '../../inference';

/** Line structure of text: what makes a page of print or handwriting differ from line art. */
export interface TextLines {
  /**
   * Bands of inked rows separated by blank rows, each 1.5–15 % of the height and ≥ 30 % wide,
   * neither a solid bar (`SOLID_BAND`) nor a row of one repeated motif (`MOTIF_ROW`).
   */
  lines: number;
  /**
   * Share of the image's ink in bands of lettering too tall for `lines` (a word mark, a banner's
   * slogan, a heading filling the image): inked bands above 15 % of the height that are long and
   * broken into glyphs (`LETTERING`), 0..1.
   */
  letteringInk: number;
  /** How many such bands. */
  letteringBands: number;
  /**
   * Share of pixels at the local paper tone: within 25 grey levels of the lightest pixel of their
   * 9×9 neighbourhood (darkest for light-on-dark writing). A shaded or unevenly lit page still
   * scores high, while texture (grass, gravel, tissue) has most pixels well below its bright
   * specks and scores low (docs/analysis.md "Scene cues").
   */
  page: number;
}

/** Ink: a pixel at least this many grey levels (0..255) from the page tone. */
const INK_CONTRAST = 45;

/**
 * Pages (share of pixels at the paper tone, `TextLines.page`) from which lines are looked for at
 * the page's skew too: the rules' page test (page.yes). A photo is never turned.
 */
const SKEW_MIN_PAGE = 0.65;

/** Half-size of the neighbourhood the local paper tone is taken from, px of the ≤ 320 px thumbnail. */
const PAPER_RADIUS = 4;

/**
 * A band whose ink repeats along itself is a row of motifs (dots, stars, tiles, icons, a dashed
 * rule), not a line of writing: its ink per column, shifted by one period, correlates at least
 * `minCorrelation` (Pearson) with itself, after first falling below `decorrelated` (so a
 * smooth stroke, alike at small shifts, is not taken for a repeat), with ≥ `minRepeats` periods
 * in the band. Letters differ from one another, even in lines alike but for one word ("Line 1
 * of …", "Line 2 of …"), so writing never repeats so closely; a row of circles does (r ≈ 1).
 */
const MOTIF_ROW = { minCorrelation: 0.9, decorrelated: 0.5, minRepeats: 3 } as const;

/**
 * A band inked over at least this share of its area is a bar or a stripe (a striped flag, a
 * banner), not a line of writing: letters leave most of their line blank (printed text ≈ 15–35 %).
 */
const SOLID_BAND = 0.8;

/**
 * A band taller than a line of a page can still be lettering: a word mark, a banner, a heading
 * alone in its image. Its inked columns span at least `minLength` × its height and break into at
 * least `minGlyphs` runs (letters, or words where italics touch) whose median width is
 * `minGlyphWidth`–`maxGlyphWidth` × the band's height, with a median blank gap between runs of at
 * most `maxGap` × the height. Measured on rendered word marks and banners: glyphs 0.35–0.77 (bold
 * capitals the widest), gaps 0.06–0.23 (monospace the widest); a row of drawn shapes or icons:
 * shapes 1.0 wide, gaps 0.4–0.64; the fine dashes of a drawn airbrush's hose 0.01 wide.
 * Columns of the ≤ 320 px thumbnail.
 */
const LETTERING = { minLength: 2.5, minGlyphs: 5, minGlyphWidth: 0.2, maxGlyphWidth: 0.9, maxGap: 0.3 } as const;

/**
 * Finds text lines on the ≤ 320 px thumbnail: ink = pixels ≥ INK_CONTRAST grey levels away from the page
 * tone (the median, so grey paper and dark-mode screens work), a row is inked when ≥ 2 % of it is
 * ink and blank under 0.5 %; runs of inked rows between blank rows are text lines when their
 * height and width fit a line of writing.
 */
export function measureTextLines(mid: RgbImage): TextLines {
  const grey = toGray(mid);
  const w = mid.width;
  const h = mid.height;
  const hist = new Uint32Array(256);
  for (let i = 0; i < grey.length; i++) {
    const v = Math.round(grey[i]!);
    hist[v] = hist[v]! + 1;
  }
  const median = histogramQuantile(hist, 0.5);
  const page = paperShare(grey, w, h, median);
  // A page turned a few degrees is read level (skew.ts); a photo is read as it is.
  const skew = page >= SKEW_MIN_PAGE ? skewDegrees(w, h, (i) => Math.abs(grey[i]! - median) >= INK_CONTRAST) : 0;
  const g = skew ? levelled(grey, w, h, skew, median) : grey;
  const rowInk = new Float32Array(h);
  const rowMin = new Int32Array(h).fill(w);
  const rowMax = new Int32Array(h).fill(-1);
  for (let y = 0; y < h; y++) {
    let ink = 0;
    for (let x = 0; x < w; x++) {
      const d = Math.abs(g[y * w + x]! - median);
      if (d >= INK_CONTRAST) {
        ink++;
        if (x < rowMin[y]!) rowMin[y] = x;
        if (x > rowMax[y]!) rowMax[y] = x;
      }
    }
    rowInk[y] = ink / w;
  }
  let lines = 0;
  let letteringBands = 0;
  let letteringInk = 0;
  let allInk = 0;
  for (let r = 0; r < h; r++) allInk += rowInk[r]!;
  let y = 0;
  while (y < h) {
    if (rowInk[y]! < 0.02) {
      y++;
      continue;
    }
    const start = y;
    let left = w;
    let right = -1;
    while (y < h && rowInk[y]! >= 0.005) {
      left = Math.min(left, rowMin[y]!);
      right = Math.max(right, rowMax[y]!);
      y++;
    }
    const height = y - start;
    const closed = start > 0 && y < h; // blank rows above and below
    if (!closed || height < 0.015 * h || right - left < 0.3 * w) continue;
    const profile = columnInk(g, w, start, y, left, right, median);
    if (!isWriting(profile, height)) continue;
    if (height <= 0.15 * h) lines++;
    else if (isLettering(profile, height)) {
      letteringBands++;
      for (let r = start; r < y; r++) letteringInk += rowInk[r]!;
    }
  }
  return { lines, letteringInk: allInk > 0 ? letteringInk / allInk : 0, letteringBands, page };
}

/** A band of `height` rows with this ink per column reads as lettering (`LETTERING`). */
function isLettering(profile: Float32Array, height: number): boolean {
  if (profile.length < LETTERING.minLength * height) return false;
  // The profile spans the band's inked columns, so it starts and ends with ink: every blank run is
  // a gap between two glyph runs.
  const runs: number[] = [];
  const gaps: number[] = [];
  let inked = 0;
  let blank = 0;
  for (let x = 0; x <= profile.length; x++) {
    if (x < profile.length && profile[x]! > 0) {
      if (blank > 0) gaps.push(blank);
      blank = 0;
      inked++;
    } else {
      if (inked > 0) runs.push(inked);
      inked = 0;
      blank++;
    }
  }
  if (runs.length < LETTERING.minGlyphs) return false;
  const glyph = median(runs) / height;
  return glyph >= LETTERING.minGlyphWidth && glyph <= LETTERING.maxGlyphWidth && median(gaps) <= LETTERING.maxGap * height;
}

/** The middle value (the upper one of an even count). */
function median(values: number[]): number {
  return values.sort((a, b) => a - b)[values.length >> 1]!;
}

/** Ink pixels per column of rows [top, bottom), columns [left, right] (ink as in `measureTextLines`). */
function columnInk(g: Float32Array, w: number, top: number, bottom: number, left: number, right: number, median: number): Float32Array {
  const out = new Float32Array(right - left + 1);
  for (let y = top; y < bottom; y++)
    for (let x = left; x <= right; x++) if (Math.abs(g[y * w + x]! - median) >= INK_CONTRAST) out[x - left]!++;
  return out;
}

/** A band of `height` rows with this ink per column can be a line of writing: neither a solid bar (`SOLID_BAND`) nor a row of motifs (`MOTIF_ROW`). */
function isWriting(profile: Float32Array, height: number): boolean {
  let ink = 0;
  for (let i = 0; i < profile.length; i++) ink += profile[i]!;
  return ink < SOLID_BAND * height * profile.length && !repeatsAlong(profile);
}

/** True when `profile` repeats with a period (`MOTIF_ROW`). */
function repeatsAlong(profile: Float32Array): boolean {
  const { minCorrelation, decorrelated, minRepeats } = MOTIF_ROW;
  let fell = false;
  for (let lag = 1; lag * minRepeats <= profile.length; lag++) {
    const r = shiftedCorrelation(profile, lag);
    if (r < decorrelated) fell = true;
    else if (fell && r >= minCorrelation) return true;
  }
  return false;
}

/** Pearson correlation of `a` with itself shifted by `lag` (over the overlap; 0 when either part is constant). */
function shiftedCorrelation(a: Float32Array, lag: number): number {
  const n = a.length - lag;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < n; i++) {
    sa += a[i]!;
    sb += a[i + lag]!;
  }
  const ma = sa / n;
  const mb = sb / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = a[i + lag]! - mb;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/**
 * Share of pixels within 25 grey levels of the local paper tone (`TextLines.page`). Ink polarity
 * follows the image: more pixels far below the median than far above means dark ink on light
 * paper, whose local paper tone is the neighbourhood maximum (a separable max filter).
 */
function paperShare(g: Float32Array, w: number, h: number, median: number): number {
  let below = 0;
  let above = 0;
  for (let i = 0; i < g.length; i++) {
    if (g[i]! <= median - INK_CONTRAST) below++;
    else if (g[i]! >= median + INK_CONTRAST) above++;
  }
  const sign = below >= above ? 1 : -1; // filter sign·g with max: max for dark ink, min for light
  const v = new Float32Array(g.length);
  for (let i = 0; i < g.length; i++) v[i] = sign * g[i]!;
  const local = maxFilter(v, w, h, PAPER_RADIUS);
  let near = 0;
  for (let i = 0; i < g.length; i++) if (local[i]! - v[i]! <= 25) near++;
  return g.length ? near / g.length : 0;
}
