/** Which failures are worth another attempt, and how long to wait. Pure; times in ms. */

/** 5xx (except 501 Not Implemented and 505, which will not change), 429 and 408 may succeed later. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

// Connection-level failures that a fresh connection can fix. Refused connections, DNS "not found"
// and TLS errors are not retried: they are almost always permanent.
const TRANSIENT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'EAI_AGAIN']);

/** True for errors such as a connection reset mid-response. */
export function isTransientNetworkError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_CODES.has(code);
}

/**
 * Parses a Retry-After header (delay-seconds or HTTP-date) into a wait; `undefined` when absent
 * or unparseable. A date in the past gives 0.
 */
export function parseRetryAfterMs(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The wait before retry number `retry` (0 for the first): exponential from `baseMs`, capped at
 * `maxMs`, with "equal jitter" (half fixed, half random) so many clients do not retry in step.
 */
export function backoffDelayMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** retry);
  return Math.round(exp / 2 + (random() * exp) / 2);
}
