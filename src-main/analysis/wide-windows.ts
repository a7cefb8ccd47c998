import { cropRgb, workingCopy, type Box, type RgbImage } from '../inference';

/**
 * Images far from square. The classifier stretches the whole image to its 224 × 224 input, which
 * suits the photos it learnt from (4:3 squeezed by a quarter) but squeezes a 3:1 panorama or a
 * banner three times over: the Colosseum composed four wide read as a gondola. The detector keeps
 * the aspect, so it sees such an image at a third of its 512 px frame's height and misses what is
 * small in it. Beyond `aspect` (long side / short side; above 16:9 and the 2.39:1 of cinema
 * stills) both look at windows along the long side too, each at most `windowAspect`:1 (a usual
 * photo's shape), and at most `maxWindows` of them: a 16 000 × 50 px strip would otherwise take
 * hundreds of model runs (214 classifier windows, 2.7–3.5 s, measured), for a strip in which
 * nothing can be recognised anyway; beyond that the windows grow longer. docs/analysis.md "Wide images".
 */
export const WIDE_IMAGE = { aspect: 2.5, windowAspect: 1.5, maxWindows: 4 } as const;

/**
 * The windows of an image of w × h px: one (the whole image) unless it is wider or taller than
 * WIDE_IMAGE.aspect; else as few windows as cover it with neighbours sharing at least
 * `minOverlap` (a fraction of a window's length, below 1), evenly spaced, at most
 * WIDE_IMAGE.maxWindows (then longer than windowAspect:1, neighbours sharing exactly `minOverlap`).
 */
export function wideWindows(width: number, height: number, minOverlap = 0): Box[] {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (short <= 0 || long / short <= WIDE_IMAGE.aspect) return [{ left: 0, top: 0, width, height }];
  const usual = Math.round(short * WIDE_IMAGE.windowAspect);
  // The epsilon keeps an exact multiple (900 = 2 × 450) from counting one window too many.
  const needed = 1 + Math.ceil((long - usual) / (usual * (1 - minOverlap)) - 1e-9);
  const count = Math.min(needed, WIDE_IMAGE.maxWindows);
  const span = count < needed ? Math.ceil(long / (count - (count - 1) * minOverlap)) : usual;
  const step = count > 1 ? (long - span) / (count - 1) : 0;
  return Array.from({ length: count }, (_, i) => {
    const start = Math.round(i * step);
    return width >= height ? { left: start, top: 0, width: span, height } : { left: 0, top: start, width, height: span };
  });
}

/** The classifier's windows: as few as cover the image, their probabilities averaged. */
export function classifierWindows(width: number, height: number): Box[] {
  return wideWindows(width, height);
}

/** A window of an image and its pixels; `toImage` maps a box in those pixels to the image's. */
export interface WindowView {
  window: Box;
  pixels: RgbImage;
  toImage(b: Box): Box;
}

/**
 * The windows' pixels, cut from the image's working copy (inference/image.ts `WORKING_COPY`: made
 * once for the whole-image inputs; a panorama's keeps a short side of 512 px) rather than from its
 * full-size pixels: a 36 MP panorama's windows were 40 MB copies each.
 */
export async function windowViews(img: RgbImage, windows: readonly Box[]): Promise<WindowView[]> {
  const copy = await workingCopy(img);
  const sx = copy.width / img.width;
  const sy = copy.height / img.height;
  return windows.map((window) => {
    const left = Math.round(window.left * sx);
    const top = Math.round(window.top * sy);
    const pixels = cropRgb(copy, { left, top, width: Math.round(window.width * sx), height: Math.round(window.height * sy) });
    const toImage = (b: Box): Box => ({ left: (b.left + left) / sx, top: (b.top + top) / sy, width: b.width / sx, height: b.height / sy });
    return { window, pixels, toImage };
  });
}
