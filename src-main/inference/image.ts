/**
 * Image decoding and pixel helpers: the only place that decodes with sharp. Everything after
 * decoding works on `RgbImage` (8-bit RGB, HWC, rows top to bottom, no padding), the one image
 * type of the app.
 */
import sharp from 'sharp';
import { AppError, BugError } from '../core';
import { isSrgbProfile } from './icc';
import { clamp } from './math';
import type { Box } from './tensor';

/**
 * Decoded pixels: `data[(y * width + x) * 3 + c]`, c = 0 R, 1 G, 2 B, each 0..255; origin top-left.
 * `channels` is always 3 where present: it may be left out, so a plain `{ data, width, height }`
 * (a worker message, a test pattern) is an image too.
 */
export interface RgbImage {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly channels?: 3;
  /**
   * Decoded from a lossy format (JPEG, WebP, HEIF/AVIF): its fills are no longer exactly flat, so
   * the pixel rules that read exact flatness of a figure stand aside (image-type/classify.ts).
   * Unset on pixels made in code and on resized copies.
   */
  readonly lossy?: boolean;
}

/** Formats (sharp's names) whose pixels are exactly those that were encoded. */
const LOSSLESS_FORMATS: ReadonlySet<string> = new Set(['png', 'gif', 'tiff', 'bmp', 'svg', 'pdf', 'ppm', 'raw']);

/** A small encoded preview for the UI. */
export interface Thumbnail {
  data: Uint8Array;
  width: number;
  height: number;
  mimeType: 'image/webp' | 'image/jpeg';
}

/** Decoding limits. */
export interface DecodeOptions {
  /** sharp refuses inputs with more pixels than this before allocating them (bomb guard). */
  maxPixels: number;
}

// Transparent pixels are composited on white: clip art and logos are drawn for a white page, and
// models see them as a viewer would (black-on-transparent line art stays black-on-white).
const WHITE = { r: 255, g: 255, b: 255 };

/**
 * Decodes JPEG/PNG bytes to 8-bit sRGB after EXIF rotation: greyscale is expanded to RGB, alpha
 * is composited on white, 16-bit is scaled to 8-bit, CMYK is converted, and only the first frame
 * of an animated PNG is read; an embedded non-sRGB ICC profile (Adobe RGB, Display P3) is converted
 * to sRGB, an sRGB one is not applied (no change, half the cost). Damaged or truncated data throws
 * `decode-failed`.
 */
export async function decodeImage(bytes: Uint8Array, opts: DecodeOptions): Promise<RgbImage> {
  try {
    const input = { limitInputPixels: opts.maxPixels, failOn: 'error', pages: 1 } as const;
    // The header only (no pixels): an sRGB profile needs no colour transform (icc.ts).
    const { icc, format, space } = await sharp(bytes, input).metadata();
    const ignoreIcc = icc !== undefined && isSrgbProfile(icc);
    const decoder = sharp(bytes, { ...input, ignoreIcc });
    // sharp converts a 16-bit RGB image's embedded profile to Display P3, not sRGB, and then only
    // rescales it to 8 bits, so an Adobe RGB or ProPhoto 16-bit PNG came out desaturated (Adobe RGB
    // orange 200,100,50 read as 187,105,61); a 16-bit grey image's profile it ignores (a linear
    // mid-grey stayed 128, not 188). Made 8 bits first, either profile is applied as for an 8-bit
    // image; 8 bits per channel is what every model reads anyway.
    const eightBit = space === 'rgb16' ? 'srgb' : space === 'grey16' ? 'b-w' : undefined;
    if (icc !== undefined && !ignoreIcc && eightBit) decoder.pipelineColourspace(eightBit);
    const { data, info } = await decoder
      .rotate() // no angle: apply the EXIF orientation, then drop the tag
      .flatten({ background: WHITE })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new BugError(`decodeImage produced ${info.channels} channels, expected 3`);
    return { data: asBytes(data), width: info.width, height: info.height, channels: 3, lossy: !LOSSLESS_FORMATS.has(format ?? '') };
  } catch (err) {
    if (err instanceof BugError) throw err;
    throw new AppError('decode-failed', `The image could not be decoded: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Encodes a preview whose longest side is `sizePx` (smaller images keep their size): WebP by
 * default, JPEG where a portable format is wanted (gallery reference thumbnails).
 */
export async function makeThumbnail(img: RgbImage, sizePx: number, format: 'webp' | 'jpeg' = 'webp'): Promise<Thumbnail> {
  // A large photo's preview is shrunk from its working copy (made for the models anyway; a 12 MP
  // photo's full read costs ≈ 25 ms), as long as that copy is at least twice the preview's size.
  const copy = await workingCopy(img);
  const from = Math.max(copy.width, copy.height) >= 2 * sizePx ? copy : img;
  const resized = fromRgb(from).resize({ width: sizePx, height: sizePx, fit: 'inside', withoutEnlargement: true });
  const { data, info } = await (format === 'jpeg' ? resized.jpeg({ quality: 85 }) : resized.webp({ quality: 80 })).toBuffer({
    resolveWithObject: true,
  });
  return { data: asBytes(data), width: info.width, height: info.height, mimeType: format === 'jpeg' ? 'image/jpeg' : 'image/webp' };
}

/** How `resizeRgb` maps the source onto the target box (sharp's names). */
export type ResizeFit = 'fill' | 'cover' | 'contain' | 'inside';
/** Resampling kernel; `linear` and `cubic` match common model preprocessors. */
export type ResizeKernel = 'nearest' | 'linear' | 'cubic' | 'lanczos3';

/** Options for `resizeRgb`. */
export interface ResizeOptions {
  /** Default `fill` (stretch to exactly width × height). */
  fit?: ResizeFit;
  /** Default `linear`. */
  kernel?: ResizeKernel;
  /** Padding colour for `contain`, 0..255 per channel; default black. */
  background?: { r: number; g: number; b: number };
}

/**
 * Resizes RGB pixels to `width × height` px (for `inside`, to fit within it). `cover` crops the
 * centre; `contain` pads (letterbox) with `background`. A linear `fill` shrink of a large photo to
 * at most half its working copy reads the working copy (`workingCopy`) instead of every pixel.
 */
export async function resizeRgb(img: RgbImage, width: number, height: number, opts: ResizeOptions = {}): Promise<RgbImage> {
  if (!(width > 0 && height > 0)) throw new BugError(`resizeRgb to ${width}x${height}`);
  const plainShrink = (opts.fit ?? 'fill') === 'fill' && (opts.kernel ?? 'linear') === 'linear';
  const from = plainShrink ? await shrinkSource(img, width, height) : img;
  return resizeRaw(from, width, height, opts);
}

/**
 * Large photos (longest side above `fromSidePx`) get one working copy, shrunk to a longest side of
 * `sidePx`: the whole-image inputs (CenterNet 512, DeepLab 321, the classifier 224, the pixel
 * statistics' 640 and 320, the face search's whole-image level, the place descriptor) are all at
 * most half its size, so each is resized from it, and a 12 MP photo is read in full once instead
 * of once per input (each full read of its 36 MB costs ≈ 20–30 ms). Smaller images are resized
 * from their own pixels as before. `sidePx` is twice the largest such input (the 640 px texture
 * copy), so every shrink still averages at least 2 × 2 working pixels per output pixel.
 *
 * A panorama's copy keeps a short side of at least `minShortSidePx` (or half the image's): what a
 * 2.5:1 copy has anyway, so nothing up to 2.5:1 changes. The windows a panorama is classified and
 * searched in (analysis/wide-windows.ts, 1.5:1) are cut from the copy too, and the detector's,
 * 512 px long, stay a shrink there (768 × 512 copy px). Cut from the image itself, each window of
 * a 36 MP panorama cost a 40 MB copy and a full-size resize (≈ 50 ms, a throwaway timing).
 */
export const WORKING_COPY = { fromSidePx: 2560, sidePx: 1280, minShortSidePx: 512 } as const;

// One working copy per image (per thread), made on first use.
const workingCopies = new WeakMap<RgbImage, Promise<RgbImage>>();

/** The image's working copy (`WORKING_COPY`), or the image itself when it is not that large. */
export function workingCopy(img: RgbImage): Promise<RgbImage> {
  const size = workingCopySize(img);
  if (!size) return Promise.resolve(img);
  let copy = workingCopies.get(img);
  if (!copy) {
    copy = resizeRaw(img, size.width, size.height, {}).then((c) => ({ ...c, lossy: img.lossy }));
    copy.catch(() => workingCopies.delete(img));
    workingCopies.set(img, copy);
  }
  return copy;
}

/**
 * Gives `img` the working copy another thread made of the same pixels (a worker message carries
 * both), so this thread does not read the photo in full to make it again. A copy of the wrong size
 * is a BugError; for an image without a working copy, nothing happens.
 */
export function adoptWorkingCopy(img: RgbImage, copy: RgbImage): void {
  const size = workingCopySize(img);
  if (!size) return;
  if (copy.width !== size.width || copy.height !== size.height || copy.data.length !== size.width * size.height * 3)
    throw new BugError(`adoptWorkingCopy: a ${copy.width}x${copy.height} copy for a ${img.width}x${img.height} image`);
  workingCopies.set(img, Promise.resolve({ data: copy.data, width: copy.width, height: copy.height, channels: 3, lossy: img.lossy }));
}

// The working copy's size in px, or undefined for an image at most `fromSidePx` on its longest side.
function workingCopySize(img: { width: number; height: number }): { width: number; height: number } | undefined {
  const longest = Math.max(img.width, img.height);
  if (longest <= WORKING_COPY.fromSidePx) return undefined;
  // At most half size: a copy any larger would not be worth its full read.
  const k = Math.min(0.5, Math.max(WORKING_COPY.sidePx / longest, WORKING_COPY.minShortSidePx / Math.min(img.width, img.height)));
  return { width: Math.max(1, Math.round(img.width * k)), height: Math.max(1, Math.round(img.height * k)) };
}

// What a linear shrink to `width × height` reads: the working copy when the output is at most
// half of it each way, else the image.
async function shrinkSource(img: RgbImage, width: number, height: number): Promise<RgbImage> {
  const copy = await workingCopy(img);
  return copy !== img && 2 * width <= copy.width && 2 * height <= copy.height ? copy : img;
}

async function resizeRaw(img: RgbImage, width: number, height: number, opts: ResizeOptions): Promise<RgbImage> {
  const { data, info } = await fromRgb(img)
    .resize({
      width,
      height,
      fit: opts.fit ?? 'fill',
      kernel: opts.kernel ?? 'linear',
      background: opts.background ?? { r: 0, g: 0, b: 0 },
    })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: asBytes(data), width: info.width, height: info.height, channels: 3 };
}

/**
 * The image with its pixels in a buffer of its own (one exact-size copy), so a worker message can
 * transfer them: sharp's buffers cannot be transferred, and a structured clone copies twice (for
 * 36 MB: ≈ 72 ms of CPU against ≈ 40 for this copy and a transfer, measured in docs/benchmarks.md).
 */
export function transferable(img: RgbImage): RgbImage & { data: Uint8Array<ArrayBuffer> } {
  return {
    data: new Uint8Array(img.data),
    width: img.width,
    height: img.height,
    channels: 3,
    ...(img.lossy !== undefined && { lossy: img.lossy }),
  };
}

/**
 * Copies a box (image px) out of an image (pure, synchronous). The box is rounded to whole pixels
 * and clamped to the image; an empty result throws a BugError (callers pass real boxes).
 */
export function cropRgb(img: RgbImage, rect: Box): RgbImage {
  const left = clamp(Math.round(rect.left), 0, img.width);
  const top = clamp(Math.round(rect.top), 0, img.height);
  const right = clamp(Math.round(rect.left + rect.width), left, img.width);
  const bottom = clamp(Math.round(rect.top + rect.height), top, img.height);
  const width = right - left;
  const height = bottom - top;
  if (width === 0 || height === 0) throw new BugError(`cropRgb: empty rectangle ${JSON.stringify(rect)} in ${img.width}x${img.height}`);
  const out = new Uint8Array(width * height * 3);
  const rowBytes = width * 3;
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * img.width + left) * 3;
    out.set(img.data.subarray(from, from + rowBytes), y * rowBytes);
  }
  return { data: out, width, height, channels: 3 };
}

function fromRgb(img: RgbImage): sharp.Sharp {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
}

// sharp returns a Buffer; expose it as a plain Uint8Array view of the same memory.
const asBytes = (buf: Buffer): Uint8Array => new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
