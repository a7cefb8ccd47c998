import { AppError, silentLogger, type Logger } from '../core';
import { urlHost } from '../intake';
import type { UnavailableHost } from '../shared/batch';

/**
 * When an image host is unavailable. A batch's list often holds many URLs of one host; when that
 * host hangs (a black-holed address, a server that accepts and never replies) or answers every
 * request with 502/503/504 (down for maintenance, a proxy without its backend), each of its URLs
 * would hold a download slot for the fetch timeout or the retry back-off on every attempt (3
 * attempts), and a list with thousands of them would crawl. After `openAfterFailures` requests in
 * a row that failed so (no answer in time: no connection, or no response; a slow transfer after a
 * response does not count), the host's further URLs wait instead of being fetched, and one
 * request every `coolDownMs` asks whether it is back; the first image (or any other answer) lets
 * them all go on. So a short outage costs a pause, not failed items. A host still unavailable
 * `giveUpAfterMs` after its first such failure is taken for down: its waiting and further URLs
 * fail at once with a message that says why (the failed items can be retried later), while it is
 * still asked once per cool-down.
 */
export const HOST_BREAKER = {
  /** Requests in a row that found one host unavailable, after which its URLs wait. */
  openAfterFailures: 3,
  /** While it is unavailable, one request per this long asks whether it is back, ms. */
  coolDownMs: 30_000,
  /** Unavailable this long since its first failed request: its URLs fail at once, ms. */
  giveUpAfterMs: 5 * 60_000,
  /** How often a waiting URL looks whether its host came back or was given up, ms. */
  pollMs: 250,
} as const;

export interface HostBreakerRule {
  openAfterFailures: number;
  coolDownMs: number;
  giveUpAfterMs: number;
  pollMs: number;
}

/** A URL put aside while a request asks whether its host is back looks again after this long, ms. */
export const HELD_RECHECK_MS = 5_000;

/** URLs behind the first in a host's line look again after at most this many polls unless woken sooner. */
const BEHIND_POLLS = 40;

/** Wakes the URLs asleep on `state`, so they look again. */
function wakeAll(state: HostState | undefined): void {
  if (state) for (const wake of [...state.sleepers]) wake();
}

/** Hosts with a streak of failures kept before old streaks are swept (host-breaker's memory: ≈ 200 bytes each). */
export const TRACKED_HOSTS = 1_000;

/** HTTP statuses that say the whole host is unavailable, not one image: bad gateway, unavailable, gateway timeout. */
const HOST_DOWN_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Why a fetch found its host unavailable ("no answer in time", "HTTP 503"), or undefined when it
 * did not. A transfer that was too slow after the host answered does not count: that host is
 * alive, and a few large images in a row must not hold its other URLs.
 */
function unavailability(err: unknown): string | undefined {
  if (!(err instanceof AppError) || isHostRefusal(err)) return undefined;
  if (err.code === 'image-timeout') return err.details?.answered === true ? undefined : 'no answer in time';
  const status = err.details?.status;
  if (err.code === 'image-fetch-failed' && typeof status === 'number' && HOST_DOWN_STATUSES.has(status)) return `HTTP ${status}`;
  return undefined;
}

/** True for the breaker's own refusal (a host given up for down; not retried within the run). */
export function isHostRefusal(err: unknown): boolean {
  return err instanceof AppError && err.code === 'image-timeout' && err.details?.phase === 'host';
}

interface HostState {
  /** Requests in a row that found it unavailable. */
  failures: number;
  /** How the last of them failed ("no answer in time", "HTTP 503"). */
  reason: string;
  /** When the first of them ended (ms since the epoch). */
  since: number;
  /** While unavailable (≥ openAfterFailures): when the next request may ask whether it is back. */
  nextProbeAt?: number;
  /** A request is asking now. */
  probing: boolean;
  /** Taken for down (said once per outage). */
  givenUp?: boolean;
  /** URLs waiting for the host, oldest first (each with its batch): the turn to ask goes in this order. */
  waiting: Array<{ batchId?: number }>;
  /** Waiting URLs asleep (`nap`): woken when the host's state changes. */
  sleepers: Set<() => void>;
  /** URLs put aside by their caller meanwhile (`holdFor`), by URL: their batch and when they look again. */
  held: Map<string, { batchId?: number; until: number }>;
}

/** Per-host count of requests that found the host unavailable; holds or refuses its URLs. */
export class HostBreaker {
  private readonly hosts = new Map<string, HostState>();
  private sweepAbove = TRACKED_HOSTS;

  /**
   * `logger` hears when a host becomes unavailable, is taken for down and answers again: for a
   * distributed worker, whose log is the only place that shows it.
   */
  constructor(
    private readonly rule: HostBreakerRule = HOST_BREAKER,
    private readonly now: () => number = Date.now,
    private readonly logger: Logger = silentLogger,
  ) {}

  /**
   * Resolves when `url` may be fetched now: at once for a host that answers; for an unavailable one,
   * when it is this request's turn to ask whether the host is back (then with `probe: true`) or
   * the host answered another. Throws the refusal once the host is given up for down, and
   * `cancelled` when `signal` aborts while waiting. Pass `probe` on to `record` or `release`.
   * `onWait` hears when the URL starts (true) and stops (false) waiting.
   */
  async admit(url: string, signal: AbortSignal, batchId?: number, onWait?: (waiting: boolean) => void): Promise<{ probe: boolean }> {
    const host = urlHost(url);
    if (host === undefined) return { probe: false };
    // The turn to ask goes to the URL that has waited longest, so a URL whose request failed
    // waits behind the others instead of spending its attempts on every turn.
    const ticket = { batchId };
    let queuedIn: HostState | undefined;
    try {
      for (;;) {
        const state = this.hosts.get(host);
        if (state?.nextProbeAt === undefined) return { probe: false };
        if (queuedIn !== state) {
          if (queuedIn === undefined) onWait?.(true);
          state.waiting.push(ticket);
          queuedIn = state;
        }
        const t = this.now();
        if (!state.probing && t >= state.nextProbeAt && state.waiting[0] === ticket) {
          state.probing = true;
          return { probe: true };
        }
        if (t - state.since >= this.rule.giveUpAfterMs) {
          if (!state.givenUp) {
            state.givenUp = true;
            this.logger.warn(`Image host ${host} taken for down: its images fail until it answers again.`, { host });
          }
          throw this.refusal(host, state, t);
        }
        // The first in line looks every pollMs (its turn to ask comes by the clock, and it sees
        // the host given up); the others sleep until something changes (an answer, a failed ask,
        // the first leaving the line), at most BEHIND_POLLS polls: 10 000 waiting URLs all
        // polling every 250 ms cost about half a core.
        await this.nap(state, state.waiting[0] === ticket ? this.rule.pollMs : this.rule.pollMs * BEHIND_POLLS, signal);
      }
    } finally {
      const at = queuedIn?.waiting.indexOf(ticket) ?? -1;
      if (at >= 0) queuedIn!.waiting.splice(at, 1);
      if (at === 0) wakeAll(queuedIn); // the next in line looks by the clock now
      if (queuedIn !== undefined) onWait?.(false);
    }
  }

  /**
   * Records how a fetch from `url` ended (`probe` as `admit` said): a failure that says the host
   * is unavailable counts, anything else (an image, or any other answer) resets the host.
   */
  record(url: string, probe: boolean, err?: unknown): void {
    const host = urlHost(url);
    if (host === undefined || isHostRefusal(err)) return;
    const reason = unavailability(err);
    if (reason === undefined) {
      const was = this.hosts.get(host);
      if (was?.nextProbeAt !== undefined)
        this.logger.info(`Image host ${host} answers again after ${Math.round((this.now() - was.since) / 1000)} s.`, { host });
      this.hosts.delete(host);
      wakeAll(was);
      return;
    }
    const t = this.now();
    const state: HostState = this.hosts.get(host) ?? {
      failures: 0,
      reason,
      since: t,
      probing: false,
      waiting: [],
      sleepers: new Set(),
      held: new Map(),
    };
    // Failures far apart (a sparse host of a long list) are no outage: an old streak starts over.
    if (state.nextProbeAt === undefined && t - state.since > this.rule.giveUpAfterMs) {
      state.failures = 0;
      state.since = t;
    }
    state.failures++;
    state.reason = reason;
    // Unavailable from now on, or the probe failed: the next one after the cool-down. (A request
    // sent before the host became unavailable that fails now changes no turn.)
    if (probe || (state.nextProbeAt === undefined && state.failures >= this.rule.openAfterFailures)) {
      if (state.nextProbeAt === undefined)
        this.logger.warn(
          `Image host ${host} unavailable (${reason}, ${state.failures} requests in a row): its images wait; one request per ${Math.round(this.rule.coolDownMs / 1000)} s asks whether it is back.`,
          { host },
        );
      state.probing = false;
      state.nextProbeAt = t + this.rule.coolDownMs;
    }
    this.hosts.set(host, state);
    wakeAll(state);
    if (this.hosts.size > this.sweepAbove) this.forgetOldStreaks(t);
  }

  /**
   * A long list of many hosts leaves one entry per host that failed once or twice; streaks older
   * than `giveUpAfterMs` would start over anyway (`record`), so they are dropped once the table
   * grows past `TRACKED_HOSTS`, and the next sweep waits until it has doubled.
   */
  private forgetOldStreaks(t: number): void {
    for (const [host, state] of this.hosts)
      if (state.nextProbeAt === undefined && t - state.since > this.rule.giveUpAfterMs) this.hosts.delete(host);
    this.sweepAbove = Math.max(TRACKED_HOSTS, 2 * this.hosts.size);
  }

  /** Hosts with a failure streak or an outage now (for tests and logs). */
  get trackedHosts(): number {
    return this.hosts.size;
  }

  /** True while `url`'s host is unavailable: its URLs wait (or fail, once it is given up). */
  unavailable(url: string): boolean {
    return this.hosts.get(urlHost(url) ?? '')?.nextProbeAt !== undefined;
  }

  /**
   * For a caller that can put a URL aside instead of waiting with it (a distributed worker delays
   * its job in Redis, so the job holds none of the worker's places): how long `url` should stay
   * away, ms, or 0 when it may be fetched now (its host answers, is given up, so `admit` refuses
   * at once, or the turn to ask is free). Until it comes back, the URL counts among its host's
   * waiting ones.
   */
  holdFor(url: string, batchId?: number): number {
    const host = urlHost(url);
    const state = host === undefined ? undefined : this.hosts.get(host);
    if (state?.nextProbeAt === undefined) return 0;
    const t = this.now();
    const askable = !state.probing && t >= state.nextProbeAt && state.waiting.length === 0;
    if (askable || t - state.since >= this.rule.giveUpAfterMs) {
      state.held.delete(url);
      return 0;
    }
    // Back when the next request may ask; while one asks (or waits to), soon after.
    const untilAsk = state.nextProbeAt - t;
    const ms = untilAsk > 0 ? untilAsk : HELD_RECHECK_MS;
    state.held.set(url, { batchId, until: t + ms });
    return ms;
  }

  /** The unavailable hosts that URLs of `batchId` wait for now. */
  unavailableHosts(batchId: number): UnavailableHost[] {
    const t = this.now();
    const out: UnavailableHost[] = [];
    for (const [host, state] of this.hosts) {
      let held = 0;
      // A held URL that has not come back within a cool-down went to another worker, or is done.
      for (const [url, h] of state.held)
        if (h.until + this.rule.coolDownMs < t) state.held.delete(url);
        else if (h.batchId === batchId) held++;
      const waiting = state.waiting.filter((w) => w.batchId === batchId).length + held;
      if (state.nextProbeAt !== undefined && waiting > 0)
        out.push({ host, reason: state.reason, unavailableSeconds: Math.floor((t - state.since) / 1000), waiting });
    }
    return out;
  }

  /** A fetch that ended neither way (cancelled): a probe gives its turn back. */
  release(url: string, probe: boolean): void {
    const state = this.hosts.get(urlHost(url) ?? '');
    if (probe && state) {
      state.probing = false;
      wakeAll(state);
    }
  }

  /** Sleeps `ms`, or until `wakeAll(state)`; rejects with `cancelled` when `signal` aborts. */
  private nap(state: HostState, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new AppError('cancelled', 'The operation was cancelled.'));
      const wake = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        state.sleepers.delete(wake);
        resolve();
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        state.sleepers.delete(wake);
        reject(new AppError('cancelled', 'The operation was cancelled.'));
      };
      const timer = setTimeout(wake, ms);
      state.sleepers.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private refusal(host: string, state: HostState, t: number): AppError {
    const seconds = Math.round((t - state.since) / 1000);
    return new AppError(
      'image-timeout',
      `Not fetched: ${host} has been unavailable for ${seconds} s (the last ${state.failures} requests: ${state.reason}), ` +
        `so the host is taken for down; retry the failed items later.`,
      { details: { phase: 'host', host, failures: state.failures, reason: state.reason, unavailableMs: t - state.since } },
    );
  }
}
