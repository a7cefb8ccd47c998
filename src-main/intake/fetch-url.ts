import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { AppError, sleep } from '../core';
import { checkAddress, rangeWithArticle, type AllowList } from './address-policy';
import { Deadline } from './deadline';
import { checkHttpUrl } from './input';
import { rateLimited } from './rate-limited';
import { httpGet, type GetOutcome } from './http-get';
import { toFetchError } from './network-errors';
import type { IntakeOptions } from './options';
import { backoffDelayMs, isRetryableStatus, isTransientNetworkError, parseRetryAfterMs } from './retry-policy';

/** Shared state for fetching: the guarded agent and the parsed exemption list. */
export interface FetchContext {
  opts: IntakeOptions;
  dispatcher: Dispatcher;
  allow: AllowList;
}

/**
 * Downloads an http(s) URL's body within the limits: every redirect hop re-checked (scheme,
 * credentials, address policy), transient failures retried, and the whole fetch bounded by
 * `totalTimeoutMs`. Throws intake AppErrors naming `shown`.
 */
export async function fetchUrlBytes(url: URL, shown: string, ctx: FetchContext, signal?: AbortSignal): Promise<Uint8Array> {
  const { opts } = ctx;
  // One controller aborts on either the caller's signal or the total deadline. (Not AbortSignal.any:
  // a batch shares one long-lived signal, and explicit listener removal keeps nothing behind.)
  const controller = new AbortController();
  let timedOut = false;
  // Whether the host sent a response (status line and headers) before the fetch ended: a timeout
  // then means a slow transfer, not a host that does not answer (jobs/host-breaker.ts).
  let answered = false;
  const onAnswer = (): void => void (answered = true);
  const deadline = new Deadline(opts.totalTimeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  const onCallerAbort = (): void => controller.abort();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    let current = url;
    for (let redirects = 0; ; redirects++) {
      checkLiteralHost(current, shown, ctx);
      const outcome = await getWithRetries(current, shown, ctx, controller.signal, deadline, onAnswer);
      if (outcome.kind === 'body') return outcome.bytes;
      if (outcome.kind === 'status') throw statusError(outcome.status, shown);
      if (redirects >= opts.maxRedirects) {
        throw new AppError('image-fetch-failed', `Could not fetch the image at ${shown}: more than ${opts.maxRedirects} redirects.`, {
          details: { status: outcome.status, redirects: redirects + 1 },
        });
      }
      current = redirectTarget(current, outcome.location, shown);
    }
  } catch (err) {
    throw toFetchError(err, shown, {
      cancelled: signal?.aborted === true,
      timedOut,
      answered,
      totalTimeoutMs: opts.totalTimeoutMs,
      connectTimeoutMs: opts.connectTimeoutMs,
    });
  } finally {
    deadline.clear();
    signal?.removeEventListener('abort', onCallerAbort);
  }
}

/**
 * One hop with retries; returns the last outcome or throws the last error when retries run out.
 * A Retry-After is honoured up to `maxRetryAfterMs` (the total deadline paused meanwhile); a longer
 * one, or one still sent when no retry is left, throws `image-rate-limited` at once.
 */
async function getWithRetries(
  url: URL,
  shown: string,
  ctx: FetchContext,
  signal: AbortSignal,
  deadline: Deadline,
  onAnswer: () => void,
): Promise<GetOutcome> {
  const { opts } = ctx;
  for (let retry = 0; ; retry++) {
    let failure: { outcome: GetOutcome } | { error: unknown };
    try {
      const outcome = await httpGet({
        url,
        shown,
        dispatcher: ctx.dispatcher,
        signal,
        userAgent: opts.userAgent,
        maxBytes: opts.maxBytes,
        onAnswer,
      });
      if (outcome.kind !== 'status' || !isRetryableStatus(outcome.status)) return outcome;
      const retryAfterMs = parseRetryAfterMs(outcome.retryAfter);
      if (retryAfterMs !== undefined) {
        if (retryAfterMs > opts.maxRetryAfterMs || retry >= opts.maxRetries) {
          throw rateLimited(outcome.status, retryAfterMs, shown, retryAfterMs > opts.maxRetryAfterMs ? opts.maxRetryAfterMs : undefined);
        }
        await deadline.paused(() => sleep(retryAfterMs, signal));
        continue;
      }
      failure = { outcome };
    } catch (error) {
      if (signal.aborted || !isTransientNetworkError(error)) throw error;
      failure = { error };
    }
    const delayMs = backoffDelayMs(retry, opts.retryBaseDelayMs, opts.maxRetryDelayMs);
    // Give up with the real failure (not a timeout) when no retry is left or it could not finish in time.
    if (retry >= opts.maxRetries || delayMs >= deadline.remainingMs()) {
      if ('outcome' in failure) return failure.outcome;
      throw failure.error;
    }
    await sleep(delayMs, signal);
  }
}

/** With the policy on, an IP-literal host is checked here: sockets skip `lookup` for literals. */
function checkLiteralHost(url: URL, shown: string, ctx: FetchContext): void {
  if (!ctx.opts.blockPrivateNetworks) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!/^[\d.]+$/.test(host) && !host.includes(':')) return; // a name: the guarded lookup checks it
  const range = checkAddress(host, ctx.allow);
  if (range) {
    throw new AppError(
      'blocked-address',
      `Refused to fetch ${shown}: ${host} is ${rangeWithArticle(range)} address. Private and local network addresses are blocked.`,
      {
        details: { address: host, range },
      },
    );
  }
}

function redirectTarget(from: URL, location: string, shown: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch (cause) {
    throw new AppError('image-fetch-failed', `Could not fetch the image at ${shown}: the server redirected to an invalid address.`, {
      cause,
    });
  }
  const checked = checkHttpUrl(next); // scheme and credentials, as for the original input
  return checked.url;
}

function statusError(status: number, shown: string): AppError {
  return new AppError(
    'image-fetch-failed',
    `Could not fetch the image at ${shown}: the server answered HTTP ${status}${STATUS_CODES[status] ? ` (${STATUS_CODES[status]})` : ''}.`,
    {
      details: { status },
    },
  );
}
