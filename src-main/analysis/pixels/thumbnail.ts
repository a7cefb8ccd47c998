import type { RgbImage } from '../../inference';

/**
 * Thin images (banners, strips) beyond `maxAspect`:1 keep a short side of `sidePx / maxAspect`
 * in their statistics copies, so long as the copy stays within `sidePx`² pixels. By the longer
 * side alone a 728 × 90 banner's 160 px field is 160 × 20 and a 50:1 strip's 160 × 3: too few
 * rows for edges, lines or sky to mean anything (a red-to-blue strip read as a building's
 * straight edges, one row in three being an edge).
 */
export const THIN_IMAGE = { maxAspect: 5 } as const;

/**
 * The scale (≤ 1) of a statistics copy of a `width × height` image for a nominal `sidePx`: the
 * longer side at most `sidePx`, except for thin images (THIN_IMAGE).
 */
export function statisticsScale(width: number, height: number, sidePx: number): number {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  let scale = sidePx / long;
  if (short > 0 && long / short > THIN_IMAGE.maxAspect) {
    const keepShort = sidePx / THIN_IMAGE.maxAspect / short;
    const keepArea = sidePx / Math.sqrt(long * short);
    scale = Math.max(scale, Math.min(keepShort, keepArea));
  }
  return Math.min(1, scale);
}

/**
 * Area-averaging downscale to `statisticsScale` (the longer side at most `maxSidePx` unless the
 * image is thin; never upscales). Pixel statistics run on this thumbnail: averaging removes JPEG
 * noise and makes every statistic independent of the input resolution, and 160 px keeps the
 * whole colour/scene pass under ~2 ms.
 */
export function thumbnail(img: RgbImage, maxSidePx: number): RgbImage {
  const scale = statisticsScale(img.width, img.height, maxSidePx);
  if (scale === 1) return img;
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const sum = new Uint32Array(w * h * 3);
  const count = new Uint32Array(w * h);
  const src = img.data;
  // Each source pixel lands in exactly one target cell (box filter); cheap and alias-free enough
  // for statistics.
  const xMap = new Int32Array(img.width);
  for (let x = 0; x < img.width; x++) xMap[x] = Math.min(w - 1, Math.floor((x * w) / img.width));
  for (let y = 0; y < img.height; y++) {
    const ty = Math.min(h - 1, Math.floor((y * h) / img.height));
    let s = y * img.width * 3;
    const rowDst = ty * w;
    for (let x = 0; x < img.width; x++, s += 3) {
      const cell = rowDst + xMap[x]!;
      const c3 = cell * 3;
      sum[c3] = sum[c3]! + src[s]!;
      sum[c3 + 1] = sum[c3 + 1]! + src[s + 1]!;
      sum[c3 + 2] = sum[c3 + 2]! + src[s + 2]!;
      count[cell] = count[cell]! + 1;
    }
  }
  const data = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    const n = count[i] || 1;
    data[i * 3] = Math.round(sum[i * 3]! / n);
    data[i * 3 + 1] = Math.round(sum[i * 3 + 1]! / n);
    data[i * 3 + 2] = Math.round(sum[i * 3 + 2]! / n);
  }
  return { data, width: w, height: h };
}

// The ≤ 320 px thumbnail's grey is read by ink, text lines and edges: computed once per image.
const grays = new WeakMap<RgbImage, Float32Array>();

/** Rec. 601 luma of every pixel, 0..255, row-major; one shared array per image (read only). */
export function toGray(img: RgbImage): Float32Array {
  const hit = grays.get(img);
  if (hit) return hit;
  const out = new Float32Array(img.width * img.height);
  const d = img.data;
  for (let i = 0, p = 0; i < out.length; i++, p += 3) out[i] = 0.299 * d[p]! + 0.587 * d[p + 1]! + 0.114 * d[p + 2]!;
  grays.set(img, out);
  return out;
}
