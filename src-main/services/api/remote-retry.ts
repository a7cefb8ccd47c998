/** Retry timing of the remote client. Pure; times in ms. */

/** 429 and 5xx (except 501/505, which will not change) may succeed on a later attempt. */
export const isRetryableStatus = (status: number): boolean =>
  status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);

const TRANSIENT = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'EAI_AGAIN',
]);

/** Connection failures a later attempt can fix (a restarting server refuses connections briefly). */
export function isTransientNetworkError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT.has(code);
}

/** Retry-After (delay-seconds or HTTP-date) as a wait in ms; undefined when absent or unparseable. */
export function parseRetryAfterMs(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Exponential backoff with equal jitter before retry `retry` (0-based), capped at `maxMs`. */
export function backoffMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** retry);
  return Math.round(exp / 2 + (random() * exp) / 2);
}
