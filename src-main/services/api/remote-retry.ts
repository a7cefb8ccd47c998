/**
 * Retry policy of the remote client. Retry-After parsing and jittered backoff are the intake's;
 * what differs is which failures count as transient for a service peer. Pure; times in ms.
 */
export { parseRetryAfterMs, backoffDelayMs as backoffMs } from '../../intake';

/** 429 and 5xx (except 501/505, which will not change) may succeed on a later attempt. */
export const isRetryableStatus = (status: number): boolean =>
  status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);

// Unlike an image host, the service is one known peer: a refused connection or a connect/header
// timeout usually means it is restarting, so those are retried too.
const TRANSIENT = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'ETIMEDOUT',
  'EAI_AGAIN',
]);

/** Connection failures a later attempt can fix (a restarting server refuses connections briefly). */
export function isTransientNetworkError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT.has(code);
}
