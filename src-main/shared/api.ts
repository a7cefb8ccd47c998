/**
 * Types of the local API server's accounts (spec §5, §8): tiers, keys and balances.
 * Money is always an integer number of micro-cents (1 ¢ = 1 000 000 µ¢, $1 = 100 000 000 µ¢),
 * so charges and top-ups add up exactly.
 */

/** Pricing tiers of spec §8; `free` exists but is not offered. */
export const API_TIERS = ['free', 'basic', 'pro'] as const;
export type ApiTier = (typeof API_TIERS)[number];

/** Micro-cents per cent. */
export const MICROCENTS_PER_CENT = 1_000_000;
/** Micro-cents per dollar. */
export const MICROCENTS_PER_DOLLAR = 100 * MICROCENTS_PER_CENT;

/**
 * Most a key's balance may hold, and so most one opening credit or top-up may add, in dollars.
 * $10 000 000 is 10^15 µ¢, well under 2^53 (≈ $90 million in µ¢), so every balance and sum
 * of money stays an exact integer in a JavaScript number.
 */
export const MAX_BALANCE_DOLLARS = 10_000_000;
/** `MAX_BALANCE_DOLLARS` in micro-cents. */
export const MAX_BALANCE_MICROCENTS = MAX_BALANCE_DOLLARS * MICROCENTS_PER_DOLLAR;

/** One API key as listed by `picscan keys list` (never the key itself, only its first characters). */
export interface ApiKeySummary {
  id: number;
  name: string;
  tier: ApiTier;
  /** First characters of the key, to tell keys apart (e.g. `psk_AbC1`). */
  keyPrefix: string;
  /** Balance in integer micro-cents. */
  balanceMicrocents: number;
  /** Balance in dollars, for display only (derived from `balanceMicrocents`). */
  balance: number;
  /** ISO 8601 */
  createdAt: string;
  /** ISO 8601, null while the key is active. */
  revokedAt: string | null;
  /** Charged transactions so far. */
  transactions: number;
}

/** What `picscan keys create` returns: the only time the full key is shown. */
export interface CreatedApiKey {
  id: number;
  key: string;
  tier: ApiTier;
  /** Balance in dollars (display). */
  balance: number;
  balanceMicrocents: number;
}
