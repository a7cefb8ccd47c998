/**
 * Reads width and height from a JPEG or PNG header without decoding, so that oversized images
 * (decompression bombs) are refused before any pixel memory is allocated.
 */

/** Pixel dimensions as stored in the file (before EXIF rotation). */
export interface HeaderSize {
  width: number;
  height: number;
}

/** The size in a PNG's IHDR chunk, or `null` when the header is missing or damaged. */
export function readPngSize(bytes: Uint8Array): HeaderSize | null {
  // 8-byte signature, then the first chunk must be IHDR: length(4) "IHDR" width(4) height(4).
  if (bytes.length < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(bytes[12] ?? 0, bytes[13] ?? 0, bytes[14] ?? 0, bytes[15] ?? 0);
  if (type !== 'IHDR') return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : null;
}

// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
const isStartOfFrame = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
// Markers without a length field.
const isStandalone = (marker: number): boolean => (marker >= 0xd0 && marker <= 0xd8) || marker === 0x01;

/** A JPEG's start-of-frame segment: its size, marker (C0–CF: the coding process) and bits per sample. */
export interface JpegFrame extends HeaderSize {
  marker: number;
  precision: number;
}

/** The size in a JPEG's start-of-frame segment, or `null` when none comes before the scan data. */
export function readJpegSize(bytes: Uint8Array): HeaderSize | null {
  const frame = readJpegFrame(bytes);
  return frame && { width: frame.width, height: frame.height };
}

/** A JPEG's start-of-frame segment, or `null` when none comes before the scan data. */
export function readJpegFrame(bytes: Uint8Array): JpegFrame | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let i = 2; // after SOI (FF D8)
  while (i < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    while (bytes[i] === 0xff) i++; // fill bytes
    const marker = bytes[i];
    i++;
    if (marker === undefined) return null;
    if (isStandalone(marker)) continue;
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    if (i + 2 > bytes.length) return null;
    const length = view.getUint16(i);
    if (isStartOfFrame(marker)) {
      // Segment: length(2) precision(1) height(2) width(2) …
      if (i + 7 > bytes.length) return null;
      const height = view.getUint16(i + 3);
      const width = view.getUint16(i + 5);
      // Height 0 means "defined later by a DNL marker": too unusual to accept blindly.
      return width > 0 && height > 0 ? { width, height, marker, precision: view.getUint8(i + 2) } : null;
    }
    if (length < 2) return null;
    i += length;
  }
  return null;
}
