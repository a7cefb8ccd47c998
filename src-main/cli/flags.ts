/**
 * Command-line flags checked with the contract's schemas (shared/contract), so the CLI accepts
 * exactly what the HTTP API and the UI accept; problems name the flag, and a bad flag is a bad
 * command line (exit 2).
 */
import type { z } from 'zod';
import { AppError } from '../core';
import { firstProblem, minHeadScaleParam, MIN_HEAD_SCALE } from '../shared/contract';

/** An integer flag within `bounds`. */
export function countFlag(text: string, flag: string, bounds: { readonly min: number; readonly max: number }): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max)
    throw new AppError('invalid-parameter', `${flag} must be an integer from ${bounds.min} to ${bounds.max}, not "${text}".`);
  return n;
}

/** `--min-head-scale`: the contract's `minHeadScale` (absent → its default). */
export function minHeadScaleFlag(text: string | undefined): number {
  const parsed = minHeadScaleParam.safeParse(text);
  if (!parsed.success)
    throw new AppError(
      'invalid-parameter',
      `--min-head-scale must be from ${MIN_HEAD_SCALE.min} to ${MIN_HEAD_SCALE.max}, not "${text ?? ''}".`,
    );
  return parsed.data;
}

/**
 * A flag parsed with a contract schema (a feature, detail or selector list…); the problem's
 * code is kept (`unsupported-feature`, `invalid-details`, …) and its message names the flag.
 */
export function contractFlag<S extends z.ZodType>(schema: S, text: string, flag: string): z.output<S> {
  const parsed = schema.safeParse(text);
  if (parsed.success) return parsed.data;
  const problem = firstProblem(parsed.error);
  const message = problem.message.replace(/`[A-Za-z]+`/, flag);
  throw new AppError(problem.code, message, { details: problem.details });
}
