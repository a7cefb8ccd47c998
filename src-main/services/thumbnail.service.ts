import { throwIfAborted, BugError } from '../core';
import type { RgbImage } from '../inference';
import type { ImageLoader } from '../intake';
import { centreCrop, smartCrop, type CropRect } from './thumbnail/crop-geometry';
import { encodeThumbnail, THUMBNAIL_MIME, type ThumbnailFormat } from './thumbnail/encode';
import { findRegions, type FoundRegions, type RegionSource } from './thumbnail/regions';

/** What thumbnail to make: exact output size in px and whether to crop around regions of interest. */
export interface ThumbnailOptions {
  width: number;
  height: number;
  smartCropping: boolean;
  /** Output format; default the input's own (the API's rule). The CLI passes its `--out` extension's. */
  format?: ThumbnailFormat;
}

/** An encoded thumbnail and how it was cut. */
export interface ThumbnailResult {
  /** The encoded file: JPEG for JPEG input, PNG for PNG input (unless `ThumbnailOptions.format`). */
  data: Uint8Array;
  mimeType: 'image/jpeg' | 'image/png';
  format: ThumbnailFormat;
  width: number;
  height: number;
  /** The rectangle of the source image (after EXIF rotation) that was scaled, px. */
  crop: CropRect;
  /** With smart cropping: the regions the crop was placed around (undefined: centre crop). */
  regions?: FoundRegions;
}

/** A decoded image and the format it came in (intake's `LoadedPixels` fits). */
export interface DecodedThumbnailInput {
  image: RgbImage;
  metadata: { format: ThumbnailFormat };
}

export interface ThumbnailService {
  /**
   * Makes a thumbnail of an input (URL, or a path where the loader allows it), or of an already
   * decoded image. Throws `AppError`s: intake codes, `model-failed`, `cancelled`. Sizes are
   * checked by the callers' parameter parsing.
   */
  thumbnail(input: string | DecodedThumbnailInput, opts: ThumbnailOptions, signal?: AbortSignal): Promise<ThumbnailResult>;
}

/** Dependencies: the image loader and the region sources smart cropping tries in order. */
export interface ThumbnailServiceDeps {
  loader?: Pick<ImageLoader, 'load'>;
  /** e.g. `[faceRegions(runner), objectRegions(runModel), saliencyRegions()]`; a subject source fits between faces and objects. */
  regionSources: readonly RegionSource[];
}

/**
 * Creates the thumbnail use case: load → (smart) crop geometry → scale and encode.
 *
 * @example
 * const svc = createThumbnailService({ loader, regionSources: defaultRegionSources(engine) });
 * const t = await svc.thumbnail('https://example.com/a.jpg', { width: 200, height: 100, smartCropping: true });
 * t.mimeType; // 'image/jpeg'
 */
export function createThumbnailService(deps: ThumbnailServiceDeps): ThumbnailService {
  return {
    async thumbnail(input, opts, signal) {
      let decoded: DecodedThumbnailInput;
      if (typeof input === 'string') {
        if (!deps.loader) throw new BugError('thumbnail service: no image loader configured for string inputs');
        decoded = await deps.loader.load(input, signal, { thumbnail: false });
      } else {
        decoded = input;
      }
      const { image } = decoded;
      const req = { imageWidth: image.width, imageHeight: image.height, targetWidth: opts.width, targetHeight: opts.height };
      const regions = opts.smartCropping ? await findRegions(image, deps.regionSources, signal) : undefined;
      const crop = regions ? smartCrop(req, regions.boxes) : centreCrop(req);
      throwIfAborted(signal);
      const format = opts.format ?? decoded.metadata.format;
      const data = await encodeThumbnail(image, crop, opts.width, opts.height, format);
      return { data, mimeType: THUMBNAIL_MIME[format], format, width: opts.width, height: opts.height, crop, ...(regions && { regions }) };
    },
  };
}
