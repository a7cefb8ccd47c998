import { CONTENT_LABELS, sniffContent, type ContentType } from '../intake';

/**
 * What a list's first bytes say it is, when it cannot be a list: an image or a workbook passed by
 * mistake (`picscan batch photo.jpg`, an .xlsx chosen in the Open dialog) was read line by line,
 * and a 40 KB JPEG became a batch of 154 "URLs" that all failed.
 */

/** Images by their magic bytes (intake/sniff.ts), as the message names them. */
const IMAGE_KINDS: ReadonlySet<ContentType> = new Set(['jpeg', 'png', 'gif', 'webp', 'bmp', 'tiff', 'ico', 'heif', 'avif', 'jpeg-xl']);
/** Other binary formats sniffed there. */
const BINARY_KINDS: ReadonlySet<ContentType> = new Set([...IMAGE_KINDS, 'pdf', 'gzip']);

/** ZIP's local file header: .zip, and Excel's .xlsx, LibreOffice's .ods. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04] as const;

/**
 * Share of control bytes (other than tab, line feed, carriage return, form feed and NUL, which
 * UTF-16 is full of) in the first bytes from which they are binary data: a text list has none.
 */
const BINARY_CONTROL_SHARE = 0.05;
/** Share of NUL bytes from which they are zero padding rather than UTF-16 (≈ half NULs for ASCII). */
const ZERO_FILLED_SHARE = 0.9;

/** A refusal for a list that is not text, or undefined when `head` (its first bytes) may be text. */
export function notTextList(head: Uint8Array): string | undefined {
  const kind = sniffContent(head);
  if (IMAGE_KINDS.has(kind))
    return `The list is ${CONTENT_LABELS[kind]}, not a text or CSV file of image URLs (one per line). To analyse a single image, use analyze rather than a batch.`;
  if (BINARY_KINDS.has(kind)) return `The list is ${CONTENT_LABELS[kind]}, not a text or CSV file of image URLs (one per line).`;
  if (ZIP_MAGIC.every((b, i) => head[i] === b))
    return 'The list is a ZIP archive (an Excel or LibreOffice workbook is one), not text: save the sheet as CSV UTF-8 with a "url" column and try again.';
  let nul = 0;
  let control = 0;
  for (const b of head) {
    if (b === 0) nul++;
    else if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) control++;
    else if (b === 0x7f) control++;
  }
  if (head.length && (nul / head.length >= ZERO_FILLED_SHARE || control / head.length >= BINARY_CONTROL_SHARE))
    return 'The list is binary data, not a text or CSV file of image URLs (one per line).';
  return undefined;
}
