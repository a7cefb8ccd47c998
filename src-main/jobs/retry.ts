import { AppError } from '../core';

/** Per-item retry policy of a batch, on top of intake's own quick retries. Times in ms. */
export interface RetryPolicy {
  /** Attempts per item in one run, including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** 3 attempts, backoff from 0.5 s up to 10 s. */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 10_000 };

// Reasons a later attempt can fix: resets and timeouts, overloaded servers. A refused
// connection, 404 or a bad image will fail the same way again.
const TRANSIENT_REASONS = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'EAI_AGAIN']);

/** True when another attempt may succeed: timeouts, 5xx/429/408, connection resets, remote overload. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof AppError)) return false;
  // The image's server asked for a longer wait than intake holds an item (or kept asking after
  // intake's retries): asking again within this run would only be refused again.
  if (err.code === 'image-rate-limited') return false;
  // A host the breaker took for down (jobs/host-breaker.ts): asking again within this run would
  // only be refused again.
  if (err.code === 'image-timeout') return err.details?.phase !== 'host';
  if (err.code === 'rate-limited' || err.code === 'remote-failed') return true;
  if (err.code !== 'image-fetch-failed') return false;
  const status = err.details?.status;
  if (typeof status === 'number') return status === 429 || status === 408 || (status >= 500 && status !== 501 && status !== 505);
  const reason = err.details?.reason;
  return typeof reason === 'string' && TRANSIENT_REASONS.has(reason);
}

/**
 * Errors that say nothing about the item and would fail every item alike: the analysis service
 * refused the key, has no credit left, or could not be reached even after its client's own
 * retries (`remote-failed` with `details.unreachable`). The run stops and the batch pauses with
 * the item back in the queue, rather than marking a whole list failed; after a new key, a top-up
 * or the service's return, a resume goes on.
 */
const RUN_HALTING_CODES: ReadonlySet<string> = new Set(['unauthorized', 'insufficient-credit']);

/** True when `err` stops the whole run instead of failing its item. */
export function haltsRun(err: unknown): err is AppError {
  if (!(err instanceof AppError)) return false;
  return RUN_HALTING_CODES.has(err.code) || (err.code === 'remote-failed' && err.details?.unreachable === true);
}

/** Exponential backoff with equal jitter before retry number `retry` (0-based). */
export function retryDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(exp / 2 + (random() * exp) / 2);
}
