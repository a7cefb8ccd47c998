import { resizeRgb, type Box, type RgbImage } from '../../inference';

/**
 * Finding the subject of an image on a plain background (a product shot or a cut-out with wide
 * margins, a small picture on a large canvas), so the classifier sees it at the scale it learnt:
 * ImageNet's objects fill most of the frame. On the unseen-photo stamps placed at 30 % of the side
 * of a white canvas (`npm run eval:unseen`), the whole canvas gave object recall 30 % and generic
 * captions 27 %; cut back to the content plus a margin, 63 % and 11 %, as the stamps themselves
 * (66 %, 10 %). docs/analysis.md, "Subject on a plain background".
 */
export const CONTENT_BOX = {
  /** Longer side of the copy the background and the content are measured on, px. */
  sidePx: 160,
  /** Width of the frame the background colour is read from, image px. */
  frameWidthPx: 2,
  /** A pixel is background within this many levels (0..255) of the frame colour on every channel (JPEG noise, soft shadows' far ends). */
  tolerance: 24,
  /** Share of frame pixels that must be background: the subject may touch an edge here and there. */
  minFrameShare: 0.9,
  /** A row or column holds content from this share of its length (stray specks do not count). */
  minLineShare: 0.01,
  /** Margin added around the content on each side, × its longer side (ImageNet crops keep some context). */
  margin: 0.1,
  /** The crop is used only when it covers at most this share of the image: otherwise the whole image is as good. */
  maxAreaShare: 0.6,
} as const;

/** Whether the image's frame is plain (one colour within CONTENT_BOX.tolerance): a thing on a page, a product shot, a cut-out. */
export function hasPlainFrame(img: RgbImage): boolean {
  return frameColor(img) !== null;
}

/**
 * The box (image px) of what stands on a plain background, with `CONTENT_BOX.margin` around it,
 * or null: no plain frame, nothing on it, or the content already fills most of the image.
 */
export async function contentBox(img: RgbImage): Promise<Box | null> {
  const c = CONTENT_BOX;
  // Most photos have no plain frame: the frame of the image itself says so before any resize.
  const bg = frameColor(img);
  if (!bg) return null;
  const scale = Math.min(1, c.sidePx / Math.max(img.width, img.height));
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const small = scale < 1 ? await resizeRgb(img, w, h) : img;
  const d = small.data;
  const t = c.tolerance;
  const rows = new Uint32Array(h);
  const cols = new Uint32Array(w);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      if (Math.abs(d[i]! - bg[0]) > t || Math.abs(d[i + 1]! - bg[1]) > t || Math.abs(d[i + 2]! - bg[2]) > t) {
        rows[y]!++;
        cols[x]!++;
      }
    }
  const ys = contentSpan(rows, w);
  const xs = contentSpan(cols, h);
  if (!xs || !ys) return null;
  // Content extent in image px (one copy pixel more on each side for the rounding of the shrink).
  const k = 1 / scale;
  const left = (xs[0] - 1) * k;
  const top = (ys[0] - 1) * k;
  const right = (xs[1] + 1) * k;
  const bottom = (ys[1] + 1) * k;
  const m = c.margin * Math.max(right - left, bottom - top);
  const box = clampBox(left - m, top - m, right + m, bottom + m, img.width, img.height);
  return box.width * box.height <= c.maxAreaShare * img.width * img.height ? box : null;
}

/** First and past-the-last index holding content (`counts` of lines `length` long), or null. */
function contentSpan(counts: Uint32Array, length: number): [number, number] | null {
  const min = Math.max(1, CONTENT_BOX.minLineShare * length);
  let first = -1;
  let last = -1;
  for (let i = 0; i < counts.length; i++)
    if (counts[i]! >= min) {
      if (first < 0) first = i;
      last = i;
    }
  return first < 0 ? null : [first, last + 1];
}

/** The median colour of the image's frame, when at least `minFrameShare` of the frame is within tolerance of it. */
function frameColor(img: RgbImage): [number, number, number] | null {
  const { width: w, height: h, data } = img;
  const f = CONTENT_BOX.frameWidthPx;
  if (w <= 4 * f || h <= 4 * f) return null;
  const frame: number[] = [];
  const at = (x: number, y: number): number => frame.push((y * w + x) * 3);
  for (let y = 0; y < h; y++) {
    if (y < f || y >= h - f) for (let x = 0; x < w; x++) at(x, y);
    else
      for (let x = 0; x < f; x++) {
        at(x, y);
        at(w - 1 - x, y);
      }
  }
  const bg: [number, number, number] = [0, 1, 2].map((ch) => {
    const hist = new Uint32Array(256);
    for (const i of frame) hist[data[i + ch]!]!++;
    let seen = 0;
    let v = 0;
    while ((seen += hist[v]!) <= frame.length >> 1) v++;
    return v;
  }) as [number, number, number];
  const t = CONTENT_BOX.tolerance;
  let plain = 0;
  for (const i of frame)
    if (Math.abs(data[i]! - bg[0]) <= t && Math.abs(data[i + 1]! - bg[1]) <= t && Math.abs(data[i + 2]! - bg[2]) <= t) plain++;
  return plain >= CONTENT_BOX.minFrameShare * frame.length ? bg : null;
}

function clampBox(left: number, top: number, right: number, bottom: number, width: number, height: number): Box {
  const l = Math.max(0, Math.floor(left));
  const t = Math.max(0, Math.floor(top));
  const r = Math.min(width, Math.ceil(right));
  const b = Math.min(height, Math.ceil(bottom));
  return { left: l, top: t, width: Math.max(1, r - l), height: Math.max(1, b - t) };
}
