import { STATUS_CODES } from 'node:http';
import { AppError } from '../core';
import { formatMs } from './describe';

/**
 * The failure of a server that asks to be retried later (429 or 503 with Retry-After) than we wait:
 * `image-rate-limited` (not `rate-limited`, which is our own API refusing a client), with the wait and the time it names, so nobody asks again before then.
 * `holdMs` is the longest wait honoured when the asked one exceeds it; `undefined` when the server
 * kept asking after every retry was spent.
 */
export function rateLimited(status: number, retryAfterMs: number, shown: string, holdMs: number | undefined, nowMs = Date.now()): AppError {
  const retryAt = new Date(Math.round((nowMs + retryAfterMs) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const answer = `HTTP ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ''}`;
  const why = holdMs !== undefined ? `longer than the ${formatMs(holdMs)} an image is waited for` : 'and it kept asking after every retry';
  return new AppError(
    'image-rate-limited',
    `Could not fetch the image at ${shown}: the server answered ${answer} and asks to retry after ${formatDelay(retryAfterMs)} (at ${retryAt}), ${why}.`,
    { details: { status, retryAfterMs, retryAt } },
  );
}

/** A wait in the largest fitting unit: `1 h`, `5 min`, `30 s`. */
function formatDelay(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 360_000) / 10} h`;
  if (ms >= 60_000) return `${Math.round(ms / 6_000) / 10} min`;
  return formatMs(ms);
}
