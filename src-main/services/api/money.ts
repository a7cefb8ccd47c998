import { AppError } from '../../core';
import { MAX_BALANCE_DOLLARS, MAX_BALANCE_MICROCENTS, MICROCENTS_PER_DOLLAR } from '../../shared/api';

const DOLLARS = /^\$?(\d+)(?:\.(\d{1,8}))?$/;

/** The balance limit as people write it: `$10,000,000`. */
export const MAX_BALANCE_TEXT = `$${MAX_BALANCE_DOLLARS.toLocaleString('en-US')}`;

/**
 * Parses a dollar amount such as `15`, `0.0012` or `$50.00` into integer micro-cents without
 * floating point (up to 8 decimals, i.e. exactly one micro-cent). Throws `invalid-parameter`
 * for anything else and for amounts over the balance limit ($10,000,000).
 */
export function parseDollars(text: string): number {
  const m = DOLLARS.exec(text.trim());
  if (!m) throw new AppError('invalid-parameter', `"${text}" is not a dollar amount: use digits with up to 8 decimals, e.g. 15 or 0.0012.`);
  // Exact in BigInt, so an amount of any length is compared with the limit, never rounded.
  const microcents = BigInt(m[1]!) * BigInt(MICROCENTS_PER_DOLLAR) + BigInt((m[2] ?? '').padEnd(8, '0'));
  if (microcents > BigInt(MAX_BALANCE_MICROCENTS)) throw overLimit(text.trim());
  return Number(microcents);
}

/** The error for an amount over the limit; `amount` as the user wrote it. */
export function overLimit(amount: string): AppError {
  return new AppError('invalid-parameter', `${amount} is over the limit: a key's balance may hold at most ${MAX_BALANCE_TEXT}.`, {
    details: { maxDollars: MAX_BALANCE_DOLLARS },
  });
}

/** Formats micro-cents as dollars with all 8 decimals trimmed to at least 2 (`15.00`, `0.0012`). */
export function formatDollars(microcents: number): string {
  const whole = Math.floor(microcents / MICROCENTS_PER_DOLLAR);
  const frac = String(microcents % MICROCENTS_PER_DOLLAR)
    .padStart(8, '0')
    .replace(/0+$/, '');
  return `${whole}.${frac.padEnd(2, '0')}`;
}

/** Micro-cents as a dollar number, for display and JSON only (never for arithmetic). */
export const toDollars = (microcents: number): number => Number(formatDollars(microcents));
