import { UsageRepo, type Db, type UsageBound, type UsagePeriod } from '../../store';
import type { ApiTier } from '../../shared/api';
import { TIERS } from './tiers';

/** Admitted, or refused with the period that is full and the seconds until its window ends. */
export type LimitDecision = { ok: true } | { ok: false; period: UsagePeriod; limit: number; retryAfterSec: number };

/** Fixed windows in UTC: the current minute, day and calendar month. */
export function windowsAt(nowMs: number): Record<UsagePeriod, { startMs: number; endMs: number }> {
  const d = new Date(nowMs);
  const minute = Math.floor(nowMs / 60_000) * 60_000;
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const month = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return {
    minute: { startMs: minute, endMs: minute + 60_000 },
    day: { startMs: day, endMs: day + 86_400_000 },
    month: { startMs: month, endMs: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) },
  };
}

/**
 * Per-tier rate and volume bounds (spec §8) as fixed UTC windows persisted in the store.
 * A refused call takes no slot.
 */
export class RateLimiter {
  private readonly repo: UsageRepo;

  constructor(
    db: Db,
    private readonly nowMs: () => number = Date.now,
    private readonly limitsOf: (tier: ApiTier) => Record<UsagePeriod, number> = (tier) => TIERS[tier].limits,
  ) {
    this.repo = new UsageRepo(db);
  }

  /** Takes one slot in the key's minute, day and month windows, or says which is full. */
  admit(keyId: number, tier: ApiTier): LimitDecision {
    const now = this.nowMs();
    const windows = windowsAt(now);
    const limits = this.limitsOf(tier);
    const bounds: UsageBound[] = (['minute', 'day', 'month'] as const).map((period) => ({
      period,
      limit: limits[period],
      windowStartMs: windows[period].startMs,
    }));
    const r = this.repo.consume(keyId, bounds);
    if (r.ok) return r;
    const endMs = windows[r.bound.period].endMs;
    return { ok: false, period: r.bound.period, limit: r.bound.limit, retryAfterSec: Math.max(1, Math.ceil((endMs - now) / 1000)) };
  }
}
