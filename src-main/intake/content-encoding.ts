import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { AppError } from '../core';

/**
 * Content codings a server may apply although we ask for `identity`, and their decoders. Each
 * decoder produces output only as fast as it is read, so the size limit stops a decompression
 * bomb after at most one chunk past the limit.
 */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate, // RFC 9110: the zlib format
  br: createBrotliDecompress,
};

/** The request header: we want the image bytes as stored. */
export const ACCEPT_IDENTITY = 'identity';

/**
 * The body with its Content-Encoding undone (codings applied in order, so undone in reverse).
 * Throws `image-fetch-failed` for a coding we cannot decode. Errors of any stage end the stream.
 */
export function decodeBody(body: Readable, contentEncoding: string | undefined, shown: string): Readable {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return body;
  const unknown = codings.find((c) => !(c in DECODERS));
  if (unknown) {
    throw new AppError(
      'image-fetch-failed',
      `Could not fetch the image at ${shown}: the server sent it with Content-Encoding "${unknown}", which picscan cannot decode.`,
      { details: { encoding: unknown } },
    );
  }
  const decoders = codings.reverse().map((c) => DECODERS[c]!());
  return pipeline([body, ...decoders], () => {}) as unknown as Readable; // errors surface while reading the last stage
}

/** True for a zlib or brotli error: the body was not validly encoded (or was cut short). */
export function isDecodeError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code);
}
