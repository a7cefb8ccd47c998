import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { AppError } from '../core';
import { ACCEPT_IDENTITY, decodeBody, isDecodeError } from './content-encoding';
import { formatBytes } from './describe';

/** What one GET produced. Non-2xx, non-redirect statuses are returned (not thrown) so retries can judge them. */
export type GetOutcome =
  | { kind: 'body'; bytes: Uint8Array }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'status'; status: number; retryAfter: string | undefined };

/** Inputs to one GET. */
export interface GetRequest {
  url: URL;
  /** Names the input in messages (no credentials). */
  shown: string;
  dispatcher: Dispatcher;
  signal: AbortSignal;
  userAgent: string;
  maxBytes: number;
  /** Called once the response's status line and headers have arrived (the host answers). */
  onAnswer?: () => void;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** One GET without following redirects; the body is read only for 2xx, within `maxBytes`. */
export async function httpGet(req: GetRequest): Promise<GetOutcome> {
  const res = await request(req.url, {
    method: 'GET',
    dispatcher: req.dispatcher,
    signal: req.signal,
    headers: { 'user-agent': req.userAgent, accept: 'image/jpeg, image/png;q=0.9, */*;q=0.1', 'accept-encoding': ACCEPT_IDENTITY },
  });
  req.onAnswer?.();
  const header = (name: string): string | undefined => {
    const v = res.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  if (res.statusCode >= 200 && res.statusCode < 300) {
    return { kind: 'body', bytes: await readLimited(res.body, header('content-length'), header('content-encoding'), req) };
  }
  // Nothing else needs the body: drop it (closing the socket) instead of reading an error page.
  discard(res.body);
  const location = header('location');
  if (REDIRECT_STATUSES.has(res.statusCode) && location) return { kind: 'redirect', status: res.statusCode, location };
  return { kind: 'status', status: res.statusCode, retryAfter: header('retry-after') };
}

/**
 * Reads a body into memory, refusing it as soon as it is known to exceed the limit: from
 * Content-Length before any byte is read, or while streaming (chunked or lying servers). A body
 * sent with Content-Encoding (gzip, deflate, br) is decoded as it streams, and the limit applies
 * to the decoded bytes, so a decompression bomb is refused one chunk past the limit.
 */
async function readLimited(
  body: Dispatcher.ResponseData['body'],
  contentLength: string | undefined,
  contentEncoding: string | undefined,
  req: GetRequest,
): Promise<Uint8Array> {
  const declared = contentLength !== undefined && /^\d+$/.test(contentLength) ? Number(contentLength) : undefined;
  if (declared !== undefined && declared > req.maxBytes) {
    discard(body);
    throw tooLarge(req, declared, true);
  }
  let decoded: Readable;
  try {
    decoded = decodeBody(body, contentEncoding, req.shown);
  } catch (err) {
    discard(body);
    throw err;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of decoded as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > req.maxBytes) throw tooLarge(req, received, false);
      chunks.push(chunk);
    }
  } catch (err) {
    discard(body);
    if (decoded !== body) decoded.destroy();
    if (isDecodeError(err)) {
      throw new AppError(
        'image-fetch-failed',
        `Could not fetch the image at ${req.shown}: the server sent a body that is not valid ${contentEncoding} data.`,
        {
          cause: err,
          details: { encoding: String(contentEncoding) },
        },
      );
    }
    throw err;
  }
  return Buffer.concat(chunks, received); // a Buffer is a Uint8Array
}

/** Destroys a body we will not read. undici then emits an AbortError; without a listener it would be an uncaught error. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function tooLarge(req: GetRequest, bytes: number, declared: boolean): AppError {
  const size = declared ? `announced ${formatBytes(bytes)}` : `sent more than ${formatBytes(req.maxBytes)}`;
  return new AppError(
    'image-too-large',
    `The image at ${req.shown} is too large: the server ${size}, and the limit is ${formatBytes(req.maxBytes)}.`,
    {
      details: { bytes, limit: req.maxBytes, declared },
    },
  );
}
