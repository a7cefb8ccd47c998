import type { Db } from './db';

/** A rate or volume window. */
export type UsagePeriod = 'minute' | 'day' | 'month';

/** One bound to check: at most `limit` calls in the window starting at `windowStartMs`. */
export interface UsageBound {
  period: UsagePeriod;
  limit: number;
  windowStartMs: number;
}

/** Consumed a slot in every window, or the first bound that is full. */
export type ConsumeResult = { ok: true } | { ok: false; bound: UsageBound };

/**
 * Persisted fixed-window counters per key (table `api_usage`), so day and month volumes survive
 * restarts. Check-and-increment of all bounds is one SQLite transaction: atomic for concurrent
 * requests in this process and across processes sharing the file.
 */
export class UsageRepo {
  private readonly consume_;

  constructor(db: Db) {
    const get = db.prepare<[number, string], { window_start_ms: number; count: number }>(
      'SELECT window_start_ms, count FROM api_usage WHERE key_id = ? AND period = ?',
    );
    const put = db.prepare<[number, string, number, number]>(
      `INSERT INTO api_usage (key_id, period, window_start_ms, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (key_id, period) DO UPDATE SET window_start_ms = excluded.window_start_ms, count = excluded.count`,
    );
    this.consume_ = db.transaction((keyId: number, bounds: readonly UsageBound[]): ConsumeResult => {
      const next: Array<{ b: UsageBound; count: number }> = [];
      for (const b of bounds) {
        const row = get.get(keyId, b.period);
        const used = row && row.window_start_ms === b.windowStartMs ? row.count : 0;
        if (used >= b.limit) return { ok: false, bound: b };
        next.push({ b, count: used + 1 });
      }
      for (const { b, count } of next) put.run(keyId, b.period, b.windowStartMs, count);
      return { ok: true };
    });
  }

  /** Takes one slot in every bound's window, or none when any bound is full. */
  consume(keyId: number, bounds: readonly UsageBound[]): ConsumeResult {
    return this.consume_.immediate(keyId, bounds);
  }
}
