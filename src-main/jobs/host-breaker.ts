import { AppError, sleep } from '../core';
import type { SilentHost } from '../shared/batch';

/**
 * When an image host stops answering. A batch's list often holds many URLs of one host; when that
 * host hangs (a black-holed address, a server that accepts and never replies), each of its URLs
 * would hold a download slot for the whole fetch timeout on every attempt (3 attempts of up to
 * 30 s), and a list with thousands of them would crawl. After `openAfterUnanswered` requests in a
 * row that the host did not answer in time (no connection, or no response; a slow transfer after
 * a response does not count), the host's further URLs wait instead of being fetched, and one
 * request every `coolDownMs` asks whether it is back; the first answer lets them all go on. So a
 * short outage costs a pause, not failed items. A host still silent `giveUpAfterMs` after its
 * first unanswered request is taken for down: its waiting and further URLs fail at once with a
 * message that says why (the failed items can be retried later), while it is still asked once
 * per cool-down.
 */
export const HOST_BREAKER = {
  /** Requests in a row that one host did not answer in time, after which its URLs wait. */
  openAfterUnanswered: 3,
  /** While it is silent, one request per this long asks whether it is back, ms. */
  coolDownMs: 30_000,
  /** Silent this long since its first unanswered request: its URLs fail at once, ms. */
  giveUpAfterMs: 5 * 60_000,
  /** How often a waiting URL looks whether its host answered or was given up, ms. */
  pollMs: 250,
} as const;

export interface HostBreakerRule {
  openAfterUnanswered: number;
  coolDownMs: number;
  giveUpAfterMs: number;
  pollMs: number;
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
 * counted: that host is alive, and a few large images in a row must not hold its other URLs.
 */
const isUnanswered = (err: unknown): boolean =>
  err instanceof AppError && err.code === 'image-timeout' && err.details?.phase !== 'host' && err.details?.answered !== true;

/** True for the breaker's own refusal (a host given up for down; not retried within the run). */
export function isHostRefusal(err: unknown): boolean {
  return err instanceof AppError && err.code === 'image-timeout' && err.details?.phase === 'host';
}

interface HostState {
  /** Requests in a row without an answer. */
  unanswered: number;
  /** When the first of them was sent on its way (ms since the epoch). */
  since: number;
  /** While silent (≥ openAfterUnanswered): when the next request may ask whether it is back. */
  nextProbeAt?: number;
  /** A request is asking now. */
  probing: boolean;
  /** URLs waiting for the host, oldest first (each with its batch): the turn to ask goes in this order. */
  waiting: Array<{ batchId?: number }>;
}

/** Per-host count of requests without an answer; holds or refuses a silent host's URLs. */
export class HostBreaker {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly rule: HostBreakerRule = HOST_BREAKER,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Resolves when `url` may be fetched now: at once for a host that answers; for a silent one,
   * when it is this request's turn to ask whether the host is back (then with `probe: true`) or
   * the host answered another. Throws the refusal once the host is given up for down, and
   * `cancelled` when `signal` aborts while waiting. Pass `probe` on to `record` or `release`.
   */
  async admit(url: string, signal: AbortSignal, batchId?: number): Promise<{ probe: boolean }> {
    const host = urlHost(url);
    if (host === undefined) return { probe: false };
    // The turn to ask goes to the URL that has waited longest, so a URL whose request went
    // unanswered waits behind the others instead of spending its attempts on every turn.
    const ticket = { batchId };
    let queuedIn: HostState | undefined;
    try {
      for (;;) {
        const state = this.hosts.get(host);
        if (state?.nextProbeAt === undefined) return { probe: false };
        if (queuedIn !== state) {
          state.waiting.push(ticket);
          queuedIn = state;
        }
        const t = this.now();
        if (!state.probing && t >= state.nextProbeAt && state.waiting[0] === ticket) {
          state.probing = true;
          return { probe: true };
        }
        if (t - state.since >= this.rule.giveUpAfterMs) throw this.refusal(host, state, t);
        await sleep(this.rule.pollMs, signal);
      }
    } finally {
      const at = queuedIn?.waiting.indexOf(ticket) ?? -1;
      if (at >= 0) queuedIn!.waiting.splice(at, 1);
    }
  }

  /**
   * Records how a fetch from `url` ended (`probe` as `admit` said): no answer in time counts,
   * anything else (an answer, even an error status) resets the host.
   */
  record(url: string, probe: boolean, err?: unknown): void {
    const host = urlHost(url);
    if (host === undefined || isHostRefusal(err)) return;
    if (!isUnanswered(err)) {
      this.hosts.delete(host);
      return;
    }
    const t = this.now();
    const state = this.hosts.get(host) ?? { unanswered: 0, since: t, probing: false, waiting: [] };
    state.unanswered++;
    // Silent from now on, or the probe went unanswered: the next one after the cool-down. (A
    // request sent before the host went silent that fails now changes no turn.)
    if (probe || (state.nextProbeAt === undefined && state.unanswered >= this.rule.openAfterUnanswered)) {
      state.probing = false;
      state.nextProbeAt = t + this.rule.coolDownMs;
    }
    this.hosts.set(host, state);
  }

  /** The silent hosts that URLs of `batchId` wait for now. */
  silentHosts(batchId: number): SilentHost[] {
    const t = this.now();
    const out: SilentHost[] = [];
    for (const [host, state] of this.hosts) {
      const waiting = state.waiting.filter((w) => w.batchId === batchId).length;
      if (state.nextProbeAt !== undefined && waiting > 0) out.push({ host, silentSeconds: Math.floor((t - state.since) / 1000), waiting });
    }
    return out;
  }

  /** A fetch that ended neither way (cancelled): a probe gives its turn back. */
  release(url: string, probe: boolean): void {
    const state = this.hosts.get(urlHost(url) ?? '');
    if (probe && state) state.probing = false;
  }

  private refusal(host: string, state: HostState, t: number): AppError {
    const silentS = Math.round((t - state.since) / 1000);
    return new AppError(
      'image-timeout',
      `Not fetched: ${host} has not answered for ${silentS} s (the last ${state.unanswered} requests got no answer in time), ` +
        `so the host is taken for down; retry the failed items later.`,
      { details: { phase: 'host', host, unanswered: state.unanswered, silentMs: t - state.since } },
    );
  }
}
