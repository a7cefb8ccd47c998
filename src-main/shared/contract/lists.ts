import { z } from 'zod';
import type { ErrorCode } from '../errors';
import { addProblem } from './problems';

/** Splits comma-separated values, trimmed, empties dropped. */
export function splitList(parts: string | readonly string[]): string[] {
  return (typeof parts === 'string' ? [parts] : parts)
    .flatMap((p) => p.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * A list of allowed names: a comma-separated string or an array of strings, matched in any
 * case, canonical spelling out, duplicates dropped; an empty value is an empty list. An
 * unknown name is a `code` problem naming the value and the allowed ones.
 *
 * @example enumList(SELECTORS, 'selector', 'invalid-parameter').parse('frontal, roll') // ['FRONTAL', 'ROLL']
 */
export function enumList<T extends string>(allowed: readonly T[], name: string, code: ErrorCode) {
  return z.union([z.string(), z.array(z.string())], { error: `\`${name}\` must be a comma-separated string.` }).transform((raw, ctx) => {
    const out: T[] = [];
    for (const value of splitList(raw)) {
      const hit = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
      if (!hit) {
        addProblem(ctx, code, `"${value}" is not a valid \`${name}\` value; allowed: ${allowed.join(', ')}.`, name, value);
        return z.NEVER;
      }
      if (!out.includes(hit)) out.push(hit);
    }
    return out;
  });
}
