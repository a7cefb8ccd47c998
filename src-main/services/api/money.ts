import { AppError } from '../../core';
import { MICROCENTS_PER_DOLLAR } from '../../shared/api';

const DOLLARS = /^\$?(\d{1,9})(?:\.(\d{1,8}))?$/;

/**
 * Parses a dollar amount such as `15`, `0.0012` or `$50.00` into integer micro-cents without
 * floating point (up to 8 decimals, i.e. exactly one micro-cent). Throws `invalid-parameter`.
 */
export function parseDollars(text: string): number {
  const m = DOLLARS.exec(text.trim());
  if (!m) throw new AppError('invalid-parameter', `"${text}" is not a dollar amount: use digits with up to 8 decimals, e.g. 15 or 0.0012.`);
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(8, '0'));
  return whole * MICROCENTS_PER_DOLLAR + frac;
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
