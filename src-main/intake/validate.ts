import { AppError } from '../core';
import { readJpegSize, readPngSize, type HeaderSize } from './header-size';
import { countJpegScans, MAX_JPEG_SCANS } from './jpeg-scans';
import { CONTENT_LABELS, sniffContent } from './sniff';
import type { IntakeOptions } from './options';

/** The two formats the service analyses, named as the spec's `metadata.format`. */
export type ImageFormat = 'Jpeg' | 'Png';

/** What the header says, once the bytes have passed every check that needs no decoding. */
export interface CheckedHeader extends HeaderSize {
  format: ImageFormat;
}

type SizeLimits = Pick<IntakeOptions, 'minSidePx' | 'maxSidePx' | 'maxPixels'>;

/**
 * Checks the bytes by content: JPEG or PNG magic, a readable header, side and pixel limits, and
 * for a JPEG the number of scans (each one a decode pass over every pixel; `jpeg-scans.ts`).
 * Throws `invalid-image-format`, `image-too-small` or `image-dimensions-exceeded`; `shown` names
 * the input in messages.
 */
export function checkImageBytes(bytes: Uint8Array, limits: SizeLimits, shown: string): CheckedHeader {
  const content = sniffContent(bytes);
  if (content !== 'jpeg' && content !== 'png') {
    throw new AppError(
      'invalid-image-format',
      `The image at ${shown} is ${CONTENT_LABELS[content]}; only JPEG and PNG images are supported.`,
      { details: { detected: content } },
    );
  }
  const format: ImageFormat = content === 'jpeg' ? 'Jpeg' : 'Png';
  const size = content === 'jpeg' ? readJpegSize(bytes) : readPngSize(bytes);
  if (!size) {
    throw new AppError(
      'invalid-image-format',
      `The image at ${shown} is a damaged or truncated ${format.toUpperCase()} file (its header cannot be read).`,
      {
        details: { detected: content },
      },
    );
  }
  checkDimensions(size, limits, shown);
  if (content === 'jpeg' && countJpegScans(bytes) > MAX_JPEG_SCANS) {
    throw new AppError(
      'invalid-image-format',
      `The image at ${shown} is a progressive JPEG in more than ${MAX_JPEG_SCANS} scans; at most ${MAX_JPEG_SCANS} are accepted, as each scan costs a decode pass over every pixel (ordinary progressive JPEGs have about 10).`,
      { details: { detected: content, maxScans: MAX_JPEG_SCANS } },
    );
  }
  return { ...size, format };
}

/** Enforces each side in [minSidePx, maxSidePx] and width × height ≤ maxPixels. */
export function checkDimensions(size: HeaderSize, limits: SizeLimits, shown: string): void {
  const { width, height } = size;
  const dims = `${width} × ${height} px`;
  if (width < limits.minSidePx || height < limits.minSidePx) {
    throw new AppError('image-too-small', `The image at ${shown} is ${dims}; each side must be at least ${limits.minSidePx} px.`, {
      details: { width, height, minSidePx: limits.minSidePx },
    });
  }
  if (width > limits.maxSidePx || height > limits.maxSidePx) {
    throw new AppError('image-dimensions-exceeded', `The image at ${shown} is ${dims}; each side must be at most ${limits.maxSidePx} px.`, {
      details: { width, height, maxSidePx: limits.maxSidePx },
    });
  }
  if (width * height > limits.maxPixels) {
    const mp = (n: number): string => `${Math.round(n / 1e5) / 10} megapixels`;
    throw new AppError(
      'image-dimensions-exceeded',
      `The image at ${shown} is ${dims} (${mp(width * height)}); the limit is ${mp(limits.maxPixels)}.`,
      { details: { width, height, pixels: width * height, maxPixels: limits.maxPixels } },
    );
  }
}
