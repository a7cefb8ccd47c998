/**
 * Command-line flags checked with the contract's schemas (shared/contract), so the CLI accepts
 * exactly what the HTTP API and the UI accept; problems name the flag, and a bad flag is a bad
 * command line (exit 2).
 */
import type { z } from 'zod';
import { isatty } from 'node:tty';
import { AppError } from '../core';
import { STDIN_PATH } from '../shared/stdin';
import { firstProblem, minHeadScaleParam, MIN_HEAD_SCALE } from '../shared/contract';

/** An integer flag within `bounds`. */
export function countFlag(text: string, flag: string, bounds: { readonly min: number; readonly max: number }): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max)
    throw new AppError('invalid-parameter', `${flag} must be an integer from ${bounds.min} to ${bounds.max}, not "${text}".`);
  return n;
}

/** A number of seconds within `bounds` (fractions allowed); "", "abc" and "Infinity" are refused, not read as 0 or a default. */
export function secondsFlag(text: string, flag: string, bounds: { readonly min: number; readonly max: number }): number {
  const seconds = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(seconds) || seconds < bounds.min || seconds > bounds.max)
    throw new AppError('invalid-parameter', `${flag} must be a number of seconds from ${bounds.min} to ${bounds.max}, not "${text}".`);
  return seconds;
}

/** Decimal digits only: `Number()` would also take "0x1", "1e0", "1.0" and " 1 " as id 1. */
const DECIMAL_ID = /^[1-9][0-9]*$/;

/**
 * A row id given on the command line (batch, key, gallery entry): a positive whole number in
 * decimal digits, else undefined (each caller names what it expected).
 */
export function idArgument(text: string): number | undefined {
  const id = DECIMAL_ID.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(id) ? id : undefined;
}

/**
 * A stored name (batch, key, gallery entry) fit for one line of a terminal: control characters
 * (a newline, an escape sequence that recolours or clears the screen) shown as U+FFFD.
 */
export function terminalText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
}

/**
 * A message of several lines fit for a terminal: its line breaks and tabs kept, any other control
 * character (an escape sequence in a name or URL it quotes) shown as U+FFFD.
 */
export function terminalLines(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
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

/** The `<image>` argument of analyze and detect, where `-` is the image piped into standard input. */
export function imageArgument(text: string): string {
  if (text !== '-') return text;
  if (isatty(0)) {
    throw new AppError(
      'invalid-parameter',
      '"-" reads the image from standard input, which is a terminal here: pipe an image in (… < photo.jpg) or give a file or URL.',
    );
  }
  if (process.platform === 'win32')
    throw new AppError('invalid-parameter', '"-" (standard input) is not supported on Windows; give a file or URL.');
  return STDIN_PATH;
}
