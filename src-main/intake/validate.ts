import { AppError } from '../core';
import { readJpegFrame, readPngSize, type HeaderSize } from './header-size';
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
 * JPEG coding processes by start-of-frame marker that the decoder (sharp's 8-bit libjpeg-turbo)
 * cannot read. They are valid JPEGs (medical and archival files), which its error ("Unsupported
 * JPEG process", "Unsupported JPEG data precision 12") made "a damaged or truncated JPEG" to the
 * user. It reads baseline and extended sequential (C0, C1), progressive (C2) and their
 * arithmetic-coded forms (C9, CA), at 8 bits per sample only.
 */
const UNDECODABLE_JPEG_PROCESSES: ReadonlyMap<number, string> = new Map([
  [0xc3, 'lossless'],
  [0xcb, 'lossless'],
  [0xc5, 'hierarchical'],
  [0xc6, 'hierarchical'],
  [0xc7, 'hierarchical'],
  [0xcd, 'hierarchical'],
  [0xce, 'hierarchical'],
  [0xcf, 'hierarchical'],
]);

/**
 * Checks the bytes by content: JPEG or PNG magic, a readable header, side and pixel limits, and
 * for a JPEG a coding process the decoder reads and the number of scans (each one a decode pass
 * over every pixel; `jpeg-scans.ts`). Throws `invalid-image-format`, `image-too-small` or
 * `image-dimensions-exceeded`; `shown` names the input in messages.
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
  const frame = content === 'jpeg' ? readJpegFrame(bytes) : null;
  const size = content === 'jpeg' ? frame && { width: frame.width, height: frame.height } : readPngSize(bytes);
  if (!size) {
    throw new AppError(
      'invalid-image-format',
      `The image at ${shown} is a damaged or truncated ${format.toUpperCase()} file (its header cannot be read).`,
      {
        details: { detected: content },
      },
    );
  }
  const unreadable =
    frame && (UNDECODABLE_JPEG_PROCESSES.get(frame.marker) ?? (frame.precision !== 8 ? `${frame.precision}-bit` : undefined));
  if (unreadable) {
    throw new AppError(
      'invalid-image-format',
      `The image at ${shown} is a ${unreadable} JPEG; only 8-bit JPEGs (baseline or progressive) can be decoded.`,
      { details: { detected: content, process: unreadable } },
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
