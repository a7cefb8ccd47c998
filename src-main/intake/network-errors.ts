import { AppError } from '../core';
import { rangeWithArticle } from './address-policy';
import { BlockedAddressError } from './guarded-agent';
import { formatMs } from './describe';

/** What ended a fetch early, for turning an abort into `cancelled` or `image-timeout`. */
export interface AbortCauses {
  /** The caller's signal fired. */
  cancelled: boolean;
  /** The total deadline passed. */
  timedOut: boolean;
  /** The host had sent a response (status line and headers) before the fetch ended. */
  answered: boolean;
  totalTimeoutMs: number;
  connectTimeoutMs: number;
}

const REASONS: Record<string, string> = {
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (temporary DNS failure)',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  UND_ERR_SOCKET: 'the server closed the connection',
  EPIPE: 'the connection was closed',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the server sent a body whose length does not match its Content-Length header',
  UND_ERR_HEADERS_OVERFLOW: 'the server sent response headers larger than the client accepts',
};

/**
 * undici's error for a reply that is not HTTP/1.1 (no status line, a bad chunk size or
 * Content-Length). The undici we ship leaves its `code` unset, so it is known by name; its message ends
 * with the parser's reason in parentheses, which is kept: "invalid character in chunk size" tells
 * the user what the server got wrong.
 */
function malformedReplyReason(err: unknown): string | undefined {
  if ((err as { name?: unknown } | null)?.name !== 'HTTPParserError') return undefined;
  const detail = /\(([^()]+)\)\s*$/.exec(String((err as Error).message))?.[1];
  return `the server's reply is not valid HTTP${detail ? ` (${detail.charAt(0).toLowerCase()}${detail.slice(1)})` : ''}`;
}

/** Turns anything a fetch threw into an intake AppError naming the URL. */
export function toFetchError(err: unknown, shown: string, causes: AbortCauses): AppError {
  if (causes.cancelled) return new AppError('cancelled', `Loading the image at ${shown} was cancelled.`, { cause: err });
  if (causes.timedOut) {
    return new AppError('image-timeout', `Fetching the image at ${shown} took longer than ${formatMs(causes.totalTimeoutMs)}.`, {
      cause: err,
      details: { timeoutMs: causes.totalTimeoutMs, phase: 'total', answered: causes.answered },
    });
  }
  if (err instanceof AppError) return err;
  if (err instanceof BlockedAddressError) {
    return new AppError(
      'blocked-address',
      `Refused to fetch ${shown}: the host "${err.hostname}" resolves to ${err.address}, ${rangeWithArticle(err.range)} address. Private and local network addresses are blocked.`,
      { details: { address: err.address, range: err.range } },
    );
  }
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new AppError(
      'image-timeout',
      `Connecting to fetch the image at ${shown} took longer than ${formatMs(causes.connectTimeoutMs)}.`,
      {
        cause: err,
        details: { timeoutMs: causes.connectTimeoutMs, phase: 'connect' },
      },
    );
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new AppError('image-timeout', `The server of ${shown} stopped responding.`, {
      cause: err,
      details: { phase: 'response', answered: code === 'UND_ERR_BODY_TIMEOUT' },
    });
  }
  const malformed = malformedReplyReason(err);
  const reason =
    malformed ??
    REASONS[code] ??
    (/CERT|SSL|TLS/.test(code) ? `a TLS/certificate error (${code})` : `a network error${code ? ` (${code})` : ''}`);
  const reasonCode = code || (malformed ? 'HTTPParserError' : '');
  return new AppError('image-fetch-failed', `Could not fetch the image at ${shown}: ${reason}.`, {
    cause: err,
    details: reasonCode ? { reason: reasonCode } : undefined,
  });
}
