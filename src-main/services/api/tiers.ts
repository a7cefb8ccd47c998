import { MICROCENTS_PER_DOLLAR, type ApiTier } from '../../shared/api';
import type { UsagePeriod } from '../../store';

/** Price, opening credit and bounds of one tier (spec §8). Money in integer micro-cents. */
export interface TierPolicy {
  available: boolean;
  /** Charged per transaction: basic 0.003 ¢ = 3 000 µ¢, pro 0.002 ¢ = 2 000 µ¢. */
  priceMicrocents: number;
  /** The tier's "Minimum" column, used as the default opening credit of a new key. */
  minimumMicrocents: number;
  /** Calls admitted per minute, per UTC day, per UTC calendar month. */
  limits: Record<UsagePeriod, number>;
}

/** Tier table of spec §8. */
export const TIERS: Readonly<Record<ApiTier, TierPolicy>> = Object.freeze({
  free: { available: false, priceMicrocents: 0, minimumMicrocents: 0, limits: { minute: 5, day: 100, month: 600 } },
  basic: {
    available: true,
    priceMicrocents: 3_000,
    minimumMicrocents: 15 * MICROCENTS_PER_DOLLAR,
    limits: { minute: 100, day: 5_000, month: 1_000_000 },
  },
  pro: {
    available: true,
    priceMicrocents: 2_000,
    minimumMicrocents: 50 * MICROCENTS_PER_DOLLAR,
    limits: { minute: 200, day: 15_000, month: 5_000_000 },
  },
});

/** A call needs at least 0.09 ¢ of credit (spec §1, §8). */
export const MIN_BALANCE_MICROCENTS = 90_000;

/** The refusal shown when someone asks for the free tier. */
export const FREE_TIER_MESSAGE =
  'The free tier exists but is not available: no free access is offered for this region. Use --tier basic or --tier pro.';
