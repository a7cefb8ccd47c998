import { createHash } from 'node:crypto';
import { AppError, throwIfAborted } from '../core';
import { decodeImage, makeThumbnail, type RgbImage, type Thumbnail } from '../inference';
import { parseAllowList } from './address-policy';
import { fetchUrlBytes, type FetchContext } from './fetch-url';
import { createIntakeAgent } from './guarded-agent';
import { parseInput, type ImageSource } from './input';
import type { IntakeOptions } from './options';
import { readLocalFile } from './read-file';
import { checkDimensions, checkImageBytes, type ImageFormat } from './validate';

/** A fetched, validated and decoded image without its thumbnail (`load(…, { thumbnail: false })`). */
export interface LoadedPixels {
  /** The input as shown in messages: URL without credentials, or the absolute file path. */
  source: string;
  /** Last path segment, percent-decoded (the detect response's `file`). */
  fileName: string;
  /** 8-bit RGB pixels after EXIF rotation, alpha composited on white. */
  image: RgbImage;
  /** The spec's `metadata`: size in px after EXIF rotation, and the format found by content. */
  metadata: { width: number; height: number; format: ImageFormat };
  /** sha256 of the original bytes, lowercase hex (for de-duplication). */
  sha256: string;
  /** Size of the original bytes. */
  byteSize: number;
  /** Wall time spent fetching or reading, and decoding (incl. the thumbnail when made), in ms. */
  timings: { fetchMs: number; decodeMs: number };
}

/** A fetched, validated and decoded image with its UI thumbnail, ready for analysis. */
export interface LoadedImage extends LoadedPixels {
  /** WebP preview, longest side ≤ `thumbnailSizePx`. */
  thumbnail: Thumbnail;
}

/**
 * What a single-image call may leave out: `thumbnail: false` skips the WebP preview (≈ 8 ms of
 * CPU for a 0.3 MP photo, more than the decode) when nothing will show it, as in detect.
 */
export interface LoadOptions {
  thumbnail: false;
  /** As in `load(input, signal, { beforeDecode })`: awaited with the pixel count before decoding. */
  beforeDecode?: DecodeGate;
}

/**
 * Called with an image's pixel count, read from its header, before the pixels are decoded; the
 * decode waits for it. Batches use it to bound the decoded pixels they hold (`jobs/pixel-budget.ts`).
 */
export type DecodeGate = (pixels: number) => Promise<void>;

/** Loads many images with one connection pool; `close()` when done. */
export interface ImageLoader {
  /** Fetches (or reads), validates and decodes one input; throws intake `AppError`s. */
  load(input: string, signal?: AbortSignal, opts?: { beforeDecode?: DecodeGate }): Promise<LoadedImage>;
  /** The same without the thumbnail (single-image calls that return no preview; batches need it). */
  load(input: string, signal: AbortSignal | undefined, opts: LoadOptions): Promise<LoadedPixels>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

/** Creates a loader holding one guarded HTTP agent for its options. */
export function createImageLoader(opts: IntakeOptions): ImageLoader {
  const allow = parseAllowList(opts.allowedNetworks);
  const dispatcher = createIntakeAgent(opts, allow);
  const ctx: FetchContext = { opts, dispatcher, allow };
  function load(input: string, signal?: AbortSignal, opts?: { beforeDecode?: DecodeGate }): Promise<LoadedImage>;
  function load(input: string, signal: AbortSignal | undefined, opts: LoadOptions): Promise<LoadedPixels>;
  function load(
    input: string,
    signal?: AbortSignal,
    loadOpts?: Partial<LoadOptions> & { beforeDecode?: DecodeGate },
  ): Promise<LoadedPixels> {
    return loadWith(ctx, input, signal, loadOpts?.thumbnail !== false, loadOpts?.beforeDecode);
  }
  return { load, close: () => dispatcher.destroy() };
}

/**
 * Turns one input (http/https URL; with `allowLocalFiles` also a path or `file:` URL) into a
 * decoded image, enforcing every limit in `opts`. For many inputs prefer `createImageLoader`.
 *
 * @example
 * const img = await loadImage('https://example.com/cat.jpg', intakeOptions('api'), signal);
 * img.metadata; // { width: 451, height: 300, format: 'Jpeg' }
 */
export async function loadImage(input: string, opts: IntakeOptions, signal?: AbortSignal): Promise<LoadedImage> {
  const loader = createImageLoader(opts);
  try {
    return await loader.load(input, signal);
  } finally {
    await loader.close();
  }
}

async function loadWith(
  ctx: FetchContext,
  input: string,
  signal: AbortSignal | undefined,
  withThumbnail: boolean,
  beforeDecode?: DecodeGate,
): Promise<LoadedPixels & { thumbnail?: Thumbnail }> {
  const { opts } = ctx;
  throwIfAborted(signal);
  const source = parseInput(input, opts.allowLocalFiles);
  const fetchStart = performance.now();
  const bytes = await readSource(source, ctx, signal);
  const fetchMs = performance.now() - fetchStart;
  // Content, header size and pixel limits are all checked before any pixel is decoded.
  const header = checkImageBytes(bytes, opts, source.shown);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  throwIfAborted(signal);
  await beforeDecode?.(header.width * header.height);
  const decodeStart = performance.now();
  const image = await decode(bytes, opts, source.shown, header.format);
  checkDimensions(image, opts, source.shown); // rotation swaps sides; limits are symmetric, but stay honest
  const thumbnail = withThumbnail ? await makeThumbnail(image, opts.thumbnailSizePx) : undefined;
  const decodeMs = performance.now() - decodeStart;
  throwIfAborted(signal);
  return {
    source: source.shown,
    fileName: source.fileName,
    image,
    metadata: { width: image.width, height: image.height, format: header.format },
    sha256,
    byteSize: bytes.length,
    ...(thumbnail && { thumbnail }),
    timings: { fetchMs: round(fetchMs), decodeMs: round(decodeMs) },
  };
}

function readSource(source: ImageSource, ctx: FetchContext, signal?: AbortSignal): Promise<Uint8Array> {
  return source.kind === 'url'
    ? fetchUrlBytes(source.url, source.shown, ctx, signal)
    : readLocalFile(source.path, ctx.opts.maxBytes, signal);
}

/** Decodes; damaged pixel data (e.g. a truncated body) is a format problem of the input. */
async function decode(bytes: Uint8Array, opts: IntakeOptions, shown: string, format: ImageFormat): Promise<RgbImage> {
  try {
    return await decodeImage(bytes, { maxPixels: opts.maxPixels });
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'decode-failed') throw err;
    throw new AppError(
      'invalid-image-format',
      `The image at ${shown} is a damaged or truncated ${format.toUpperCase()} file and cannot be decoded.`,
      {
        cause: err,
        details: { detected: format.toLowerCase() },
      },
    );
  }
}

const round = (ms: number): number => Math.round(ms * 10) / 10;
