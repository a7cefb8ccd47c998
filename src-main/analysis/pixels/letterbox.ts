import type { RgbImage } from '../../inference';

/**
 * Letterbox and pillarbox bars: black bands across the top and bottom (or down the left and
 * right) of a picture that runs to the other two edges: a video still, a wide photo on a square
 * or portrait canvas. They are no part of the picture, yet its statistics read them: a sky no
 * longer touches the top row (a letterboxed Colosseum lost its sky, 0.26 → 0, and its "a
 * building" caption), and a third of the image reads as dark.
 * - A bar line (row or column): at least `barShare` of its pixels have every channel ≤ `maxLevel`
 *   (black; JPEG noise stays within a few levels).
 * - Bars on both opposite sides, each at least `minBar` of the side; the picture between them at
 *   least `minPicture` of it (a 9:16 phone video in a 16:9 frame is 0.32 of its width).
 * - The other two sides are no bars (each under `minBar`): a drawing centred on black is framed
 *   on all four sides and is left as it is.
 * - The picture starts sharply at each bar: one of its first `edgeLines` lines (JPEG rings a line
 *   or two) averages at least `minEdgeLevel` in its brightest channel. A night photo whose sky and
 *   foreground are black fades into its lit middle instead, and is left whole (its darkness is
 *   the picture's); so is a bar-framed picture whose edges are dark, as it was before.
 */
export const LETTERBOX = { maxLevel: 24, barShare: 0.99, minBar: 0.03, minPicture: 0.3, edgeLines: 3, minEdgeLevel: 48 } as const;

/** The picture inside letterbox or pillarbox bars (`LETTERBOX`), image px; undefined when there are none. */
export function letterboxContent(img: RgbImage): { left: number; top: number; width: number; height: number } | undefined {
  const { width: w, height: h } = img;
  const rowBar = (y: number): boolean => isBar(img, y * w, 1, w);
  const colBar = (x: number): boolean => isBar(img, x, w, h);
  const top = runFrom(h, (i) => rowBar(i));
  const bottom = top >= h ? 0 : runFrom(h - top, (i) => rowBar(h - 1 - i));
  const left = runFrom(w, (i) => colBar(i));
  const right = left >= w ? 0 : runFrom(w - left, (i) => colBar(w - 1 - i));
  const { minBar, minPicture } = LETTERBOX;
  const barred = (a: number, b: number, side: number): boolean =>
    a >= minBar * side && b >= minBar * side && side - a - b >= minPicture * side;
  const clear = (a: number, b: number, side: number): boolean => a < minBar * side && b < minBar * side;
  // Lines k = 0 … edgeLines − 1 into the picture from each bar.
  const sharpRows = (): boolean =>
    startsSharply((k) => lineLevel(img, (top + k) * w, 1, w)) && startsSharply((k) => lineLevel(img, (h - 1 - bottom - k) * w, 1, w));
  const sharpCols = (): boolean =>
    startsSharply((k) => lineLevel(img, left + k, w, h)) && startsSharply((k) => lineLevel(img, w - 1 - right - k, w, h));
  if (barred(top, bottom, h) && clear(left, right, w) && sharpRows()) return { left: 0, top, width: w, height: h - top - bottom };
  if (barred(left, right, w) && clear(top, bottom, h) && sharpCols()) return { left, top: 0, width: w - left - right, height: h };
  return undefined;
}

/** True when one of the first `edgeLines` lines into the picture is bright enough (`minEdgeLevel`). */
function startsSharply(levelOfLine: (k: number) => number): boolean {
  for (let k = 0; k < LETTERBOX.edgeLines; k++) if (levelOfLine(k) >= LETTERBOX.minEdgeLevel) return true;
  return false;
}

/** Mean of the brightest channel over `count` pixels from pixel `start`, `step` pixels apart (0..255). */
function lineLevel(img: RgbImage, start: number, step: number, count: number): number {
  const d = img.data;
  let sum = 0;
  for (let k = 0, p = start * 3; k < count; k++, p += step * 3) sum += Math.max(d[p]!, d[p + 1]!, d[p + 2]!);
  return sum / count;
}

/** How many of the first `n` lines (i = 0, 1, …) pass `bar`. */
function runFrom(n: number, bar: (i: number) => boolean): number {
  let i = 0;
  while (i < n && bar(i)) i++;
  return i;
}

/** True when ≥ `barShare` of the `count` pixels from pixel `start`, `step` pixels apart, are black. */
function isBar(img: RgbImage, start: number, step: number, count: number): boolean {
  const d = img.data;
  const allowed = Math.floor((1 - LETTERBOX.barShare) * count);
  let bright = 0;
  for (let k = 0, p = start * 3; k < count; k++, p += step * 3) {
    if (d[p]! > LETTERBOX.maxLevel || d[p + 1]! > LETTERBOX.maxLevel || d[p + 2]! > LETTERBOX.maxLevel) {
      bright++;
      if (bright > allowed) return false;
    }
  }
  return true;
}
