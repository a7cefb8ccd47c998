import type { Redis } from 'ioredis';
import type { UnavailableHost, WorkerStatus } from '../../shared/batch';
import { keys } from './keys';
import type { WorkerBeat } from './protocol';

/** A worker that has not beaten for this long is not counted as connected, ms. */
export const WORKER_GONE_MS = 15_000;
/** Window of the per-worker rate, ms. */
const RATE_WINDOW_MS = 30_000;

/**
 * The coordinator's view of the workers: heartbeats read from Redis (timed by this machine's
 * clock when a beat changes, so clocks of other machines do not matter) and results per worker.
 */
export class WorkerRoster {
  private readonly lastBeat = new Map<string, { at: number; seenMs: number; beat: WorkerBeat }>();
  /** Per worker: results delivered in this run, and the times of those in the rate window. */
  private readonly delivered = new Map<string, { count: number; recent: number[] }>();
  /** Workers with another model set (other picscan version or models): they never take this batch's jobs. */
  private readonly others = new Map<string, { at: number; seenMs: number }>();

  constructor(
    private readonly modelSet: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one result from `worker`. */
  noteResult(worker: string): void {
    const now = this.now();
    const d = this.delivered.get(worker) ?? { count: 0, recent: [] };
    d.count++;
    d.recent.push(now);
    while (d.recent.length && now - d.recent[0]! > RATE_WINDOW_MS) d.recent.shift();
    this.delivered.set(worker, d);
  }

  /** Reads the heartbeat hash. */
  async refresh(redis: Redis): Promise<void> {
    const all = await redis.hgetall(keys.workers);
    for (const [name, json] of Object.entries(all)) {
      let beat: WorkerBeat;
      try {
        beat = JSON.parse(json) as WorkerBeat;
      } catch {
        continue;
      }
      if (beat.modelSet !== this.modelSet) {
        const prev = this.others.get(name);
        if (!prev || prev.at !== beat.at) this.others.set(name, { at: beat.at, seenMs: this.now() });
        continue;
      }
      const prev = this.lastBeat.get(name);
      if (!prev || prev.at !== beat.at) this.lastBeat.set(name, { at: beat.at, seenMs: this.now(), beat });
    }
  }

  /** Connected workers (beat within WORKER_GONE_MS) plus any that delivered results, by name. */
  list(): WorkerStatus[] {
    const now = this.now();
    const names = new Set([...this.lastBeat.keys(), ...this.delivered.keys()]);
    const out: WorkerStatus[] = [];
    for (const name of names) {
      const seen = this.lastBeat.get(name);
      const lastSeenMs = seen ? now - seen.seenMs : Number.POSITIVE_INFINITY;
      const d = this.delivered.get(name) ?? { count: 0, recent: [] };
      if (lastSeenMs > WORKER_GONE_MS && d.count === 0) continue;
      const recent = d.recent.filter((t) => now - t <= RATE_WINDOW_MS).length;
      out.push({
        name,
        version: seen?.beat.version ?? '',
        done: d.count,
        imagesPerSecond: Math.round((recent / (RATE_WINDOW_MS / 1000)) * 100) / 100,
        lastSeenMs: Number.isFinite(lastSeenMs) ? lastSeenMs : -1,
      });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The unavailable image hosts that connected workers' fetches of batch `queueKey` wait for, one
   * entry per host: the waiting URLs of all workers added up, the longest outage and its reason.
   */
  unavailableHosts(queueKey: string): UnavailableHost[] {
    const now = this.now();
    const byHost = new Map<string, UnavailableHost>();
    for (const { seenMs, beat } of this.lastBeat.values()) {
      if (now - seenMs > WORKER_GONE_MS) continue;
      for (const h of beat.unavailableHosts?.[queueKey] ?? []) {
        const seen = byHost.get(h.host);
        if (!seen) byHost.set(h.host, { ...h });
        else {
          seen.waiting += h.waiting;
          if (h.unavailableSeconds > seen.unavailableSeconds)
            Object.assign(seen, { unavailableSeconds: h.unavailableSeconds, reason: h.reason });
        }
      }
    }
    return [...byHost.values()].sort((a, b) => a.host.localeCompare(b.host));
  }

  /** Connected workers (beat within WORKER_GONE_MS) with another model set, by name: they take none of this batch's jobs. */
  mismatched(): string[] {
    const now = this.now();
    return [...this.others]
      .filter(([, w]) => now - w.seenMs <= WORKER_GONE_MS)
      .map(([name]) => name)
      .sort((a, b) => a.localeCompare(b));
  }

  /** Workers whose heartbeat is current. */
  connected(): number {
    return this.list().filter((w) => w.lastSeenMs >= 0 && w.lastSeenMs <= WORKER_GONE_MS).length;
  }
}
