import { AppError } from '../core';

/**
 * When an image host stops answering. A batch's list often holds many URLs of one host; when that
 * host is down in a way that makes requests hang (a black-holed address, a server that accepts and
 * never replies), each of its URLs would hold a download slot for the whole fetch timeout on every
 * attempt (3 attempts of up to 30 s), and a list with thousands of them would crawl. After
 * `openAfterTimeouts` requests in a row that the host did not answer in time (no connection, or no
 * response; a slow transfer after a response does not count), its further URLs are not fetched for
 * `coolDownMs`: they fail at once with a message that says why (the failed items can be retried
 * later); then one more request is let through, and the next answer from the host closes it again.
 */
export const HOST_BREAKER = {
  /** Requests in a row that one host did not answer in time, which stop fetching from it. */
  openAfterTimeouts: 3,
  /** How long its URLs fail at once before it is tried again, ms. */
  coolDownMs: 60_000,
} as const;

export interface HostBreakerRule {
  openAfterTimeouts: number;
  coolDownMs: number;
}

/** The host of an image URL (host and port), or undefined for a file path or a non-http URL. */
export function urlHost(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True for the fetch failure the breaker counts: the host did not answer in time (no connection,
 * or no response to the request). A transfer that was too slow after the host answered is not
 * counted: that host is alive, and a few large images in a row must not stop its other URLs.
 */
const isUnanswered = (err: unknown): boolean =>
  err instanceof AppError && err.code === 'image-timeout' && err.details?.phase !== 'host' && err.details?.answered !== true;

/** True for the breaker's own refusal (never worth retrying within the cool-down). */
export function isHostRefusal(err: unknown): boolean {
  return err instanceof AppError && err.code === 'image-timeout' && err.details?.phase === 'host';
}

interface HostState {
  /** Timeouts in a row. */
  timeouts: number;
  /** While open: when fetching may resume (ms since the epoch). */
  openUntil?: number;
}

/** Per-host count of timeouts in a row; refuses a host's URLs while it is open. */
export class HostBreaker {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly rule: HostBreakerRule = HOST_BREAKER,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws the refusal when `url`'s host is open (its last requests timed out). */
  check(url: string): void {
    const host = urlHost(url);
    if (host === undefined) return;
    const state = this.hosts.get(host);
    if (state?.openUntil === undefined) return;
    if (this.now() >= state.openUntil) {
      // Cool-down over: let requests through; one more timeout opens it again.
      state.openUntil = undefined;
      state.timeouts = this.rule.openAfterTimeouts - 1;
      return;
    }
    throw new AppError(
      'image-timeout',
      `Not fetched: the last ${state.timeouts} requests to ${host} got no answer in time, so the host is not answering; ` +
        `its images are tried again after ${Math.round(this.rule.coolDownMs / 1000)} s (retry the failed items later).`,
      { details: { phase: 'host', host, timeouts: state.timeouts } },
    );
  }

  /** Records how a fetch from `url` ended: a timeout counts, anything else (an answer) resets. */
  record(url: string, err?: unknown): void {
    const host = urlHost(url);
    if (host === undefined || isHostRefusal(err)) return;
    if (!isUnanswered(err)) {
      this.hosts.delete(host);
      return;
    }
    const state = this.hosts.get(host) ?? { timeouts: 0 };
    state.timeouts++;
    if (state.timeouts >= this.rule.openAfterTimeouts && state.openUntil === undefined) state.openUntil = this.now() + this.rule.coolDownMs;
    this.hosts.set(host, state);
  }
}
