/**
 * Crop geometry of thumbnails (pure): which rectangle of the source image becomes a `width ×
 * height` thumbnail. Without smart cropping it is the largest centred rectangle of the target
 * aspect ratio; with it, the same-sized rectangle moved to hold a region of interest.
 */
import { clamp, type Box } from '../../inference';

/** A rectangle in source-image pixels, origin top-left; whole pixels inside the image. */
export type CropRect = Box;

/**
 * A region of interest in source-image pixels (may be fractional, may overhang the image edge).
 * `weight` > 0 ranks regions: the heaviest is kept first when not all fit in the crop.
 */
export interface WeightedBox extends Box {
  weight: number;
}

/** Source image size and requested thumbnail size, px. */
export interface CropRequest {
  imageWidth: number;
  imageHeight: number;
  targetWidth: number;
  targetHeight: number;
}

/** Integer edges of a region, clipped to the image. */
interface Span {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The largest `targetWidth : targetHeight` rectangle that fits in the image (its size only). */
export function cropSize(req: CropRequest): { width: number; height: number } {
  const { imageWidth: w, imageHeight: h, targetWidth: tw, targetHeight: th } = req;
  // Compare aspect ratios by cross-multiplication so equal ratios keep the whole image exactly.
  if (w * th >= h * tw) return { width: clamp(Math.round((h * tw) / th), 1, w), height: h };
  return { width: w, height: clamp(Math.round((w * th) / tw), 1, h) };
}

/** Centre crop: the largest rectangle of the target aspect ratio, centred. */
export function centreCrop(req: CropRequest): CropRect {
  const size = cropSize(req);
  return {
    left: Math.floor((req.imageWidth - size.width) / 2),
    top: Math.floor((req.imageHeight - size.height) / 2),
    ...size,
  };
}

/**
 * Smart crop: the centre crop's size, placed around the regions. Regions are taken heaviest
 * first while their union still fits in the crop, so a face is never cut when it (with any
 * heavier ones) fits; the crop is then centred on the weighted centre of the taken regions and
 * shifted only as far as needed to hold their union and stay inside the image. No regions (or
 * none inside the image): the centre crop.
 *
 * @example
 * smartCrop({ imageWidth: 400, imageHeight: 200, targetWidth: 100, targetHeight: 100 },
 *   [{ left: 360, top: 50, width: 40, height: 60, weight: 1 }]); // { left: 200, top: 0, width: 200, height: 200 }
 */
export function smartCrop(req: CropRequest, regions: readonly WeightedBox[]): CropRect {
  const size = cropSize(req);
  const spans = regions
    .filter((r) => r.weight > 0)
    .map((r) => ({ span: toSpan(r, req), weight: r.weight }))
    .filter((r): r is { span: Span; weight: number } => r.span !== undefined)
    .sort((a, b) => b.weight - a.weight);
  if (spans.length === 0) return centreCrop(req);

  const taken = [spans[0]!];
  let union = spans[0]!.span;
  for (const next of spans.slice(1)) {
    const grown = unite(union, next.span);
    if (grown.right - grown.left <= size.width && grown.bottom - grown.top <= size.height) {
      union = grown;
      taken.push(next);
    }
  }
  const totalWeight = taken.reduce((s, t) => s + t.weight, 0);
  const focusX = taken.reduce((s, t) => s + t.weight * ((t.span.left + t.span.right) / 2), 0) / totalWeight;
  const focusY = taken.reduce((s, t) => s + t.weight * ((t.span.top + t.span.bottom) / 2), 0) / totalWeight;
  return {
    left: place(focusX, size.width, union.left, union.right, req.imageWidth),
    top: place(focusY, size.height, union.top, union.bottom, req.imageHeight),
    ...size,
  };
}

/**
 * Start of a crop of length `len` centred on `focus`, moved to cover [lo, hi) when that span fits
 * (otherwise centred on the focus alone), and kept inside [0, extent).
 */
function place(focus: number, len: number, lo: number, hi: number, extent: number): number {
  let min = 0;
  let max = extent - len;
  if (hi - lo <= len) {
    min = Math.max(min, hi - len);
    max = Math.min(max, lo);
  }
  return clamp(Math.round(focus - len / 2), min, max);
}

function toSpan(r: WeightedBox, req: CropRequest): Span | undefined {
  const left = clamp(Math.floor(r.left), 0, req.imageWidth);
  const top = clamp(Math.floor(r.top), 0, req.imageHeight);
  const right = clamp(Math.ceil(r.left + r.width), 0, req.imageWidth);
  const bottom = clamp(Math.ceil(r.top + r.height), 0, req.imageHeight);
  return right > left && bottom > top ? { left, top, right, bottom } : undefined;
}

function unite(a: Span, b: Span): Span {
  return {
    left: Math.min(a.left, b.left),
    top: Math.min(a.top, b.top),
    right: Math.max(a.right, b.right),
    bottom: Math.max(a.bottom, b.bottom),
  };
}
