/**
 * Content sniffing by magic bytes. The extension and Content-Type are ignored on purpose: servers
 * mislabel files, and only the bytes decide what the decoder will see.
 */

/** What a body looks like. Only `jpeg` and `png` are analysed. */
export type ContentType =
  | 'jpeg'
  | 'png'
  | 'gif'
  | 'webp'
  | 'bmp'
  | 'tiff'
  | 'ico'
  | 'heif'
  | 'avif'
  | 'jpeg-xl'
  | 'jpeg-2000'
  | 'pdf'
  | 'gzip'
  | 'svg'
  | 'html'
  | 'xml'
  | 'json'
  | 'empty'
  | 'unknown';

/** Phrases for messages: "… is <label>; only JPEG and PNG images are supported." */
export const CONTENT_LABELS: Record<ContentType, string> = {
  jpeg: 'a JPEG image',
  png: 'a PNG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  bmp: 'a BMP image',
  tiff: 'a TIFF image',
  ico: 'an ICO icon',
  heif: 'a HEIF/HEIC image',
  avif: 'an AVIF image',
  'jpeg-xl': 'a JPEG XL image',
  'jpeg-2000': 'a JPEG 2000 image',
  pdf: 'a PDF document',
  gzip: 'gzip-compressed data',
  svg: 'an SVG drawing',
  html: 'an HTML page',
  xml: 'an XML document',
  json: 'a JSON document',
  empty: 'empty (0 bytes)',
  unknown: 'not a recognised image',
};

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0): boolean =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const BINARY_SIGNATURES: ReadonlyArray<[ContentType, readonly number[], number]> = [
  ['jpeg', [0xff, 0xd8, 0xff], 0],
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0],
  ['gif', ascii('GIF8'), 0],
  ['webp', ascii('WEBP'), 8], // after "RIFF" + 4-byte size
  ['bmp', ascii('BM'), 0],
  ['tiff', [0x49, 0x49, 0x2a, 0x00], 0],
  ['tiff', [0x4d, 0x4d, 0x00, 0x2a], 0],
  ['ico', [0x00, 0x00, 0x01, 0x00], 0],
  ['jpeg-xl', [0xff, 0x0a], 0],
  ['jpeg-xl', [0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20], 0],
  // The JP2 file's signature box, then a bare codestream (SOC and SIZ markers).
  ['jpeg-2000', [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20, 0x0d, 0x0a, 0x87, 0x0a], 0],
  ['jpeg-2000', [0xff, 0x4f, 0xff, 0x51], 0],
  ['pdf', ascii('%PDF'), 0],
  ['gzip', [0x1f, 0x8b], 0],
];

/** Detects a body's type from its first bytes. */
export function sniffContent(bytes: Uint8Array): ContentType {
  if (bytes.length === 0) return 'empty';
  for (const [type, sig, at] of BINARY_SIGNATURES) {
    if (type === 'webp' && !startsWith(bytes, ascii('RIFF'))) continue;
    if (startsWith(bytes, sig, at)) return type;
  }
  if (startsWith(bytes, ascii('ftyp'), 4)) return isoBrand(bytes);
  return sniffText(bytes);
}

function isoBrand(bytes: Uint8Array): ContentType {
  const brand = String.fromCharCode(...bytes.subarray(8, 12));
  return brand === 'avif' || brand === 'avis' ? 'avif' : brand.startsWith('he') || brand.startsWith('mif') ? 'heif' : 'unknown';
}

function sniffText(bytes: Uint8Array): ContentType {
  // Error pages and markup: look at the start only (after a UTF-8 BOM and whitespace).
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (head.includes('<svg')) return 'svg';
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body|title|meta)\b/.test(head)) return 'html';
  if (head.startsWith('<')) return 'xml';
  if (head.startsWith('{') || head.startsWith('[')) return 'json';
  return 'unknown';
}
