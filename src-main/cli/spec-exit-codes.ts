import type { ErrorCode } from '../shared/errors';
import { ExitCode, type ExitCodeValue } from './exit-codes';

/**
 * Exit codes of the single-image commands (detect, analyze) by outcome, as README's exit-code
 * paragraph says: a spec-level result (no faces, too many faces) is a normal answer, a problem
 * with the command line is 2, anything else that stopped the command (image unreachable, not an
 * image, too large, model failure) is 1.
 */
const KAIROS_EXIT: Readonly<Record<number, ExitCodeValue>> = {
  /** required parameter missing */
  1002: ExitCode.usage,
  /** an invalid parameter was sent */
  1003: ExitCode.usage,
  /** invalid image (format, size) */
  5000: ExitCode.failed,
  /** invalid image URL (unreachable, 404, blocked) */
  5001: ExitCode.failed,
  /** no faces found: an answer */
  5002: ExitCode.ok,
  /** too many faces: an answer */
  5010: ExitCode.ok,
};

/** The exit code for a Kairos detect body: the worst of its errors' codes (0 without errors). */
export function detectExitCode(errCodes: readonly number[]): ExitCodeValue {
  const codes = errCodes.map((c) => KAIROS_EXIT[c] ?? ExitCode.failed);
  return codes.includes(ExitCode.usage) ? ExitCode.usage : codes.includes(ExitCode.failed) ? ExitCode.failed : ExitCode.ok;
}

/** Error codes that mean the command line asked for something invalid. */
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'invalid-parameter',
  'missing-parameter',
  'unsupported-feature',
  'invalid-details',
]);

/** The exit code for a failed analyze: 2 for a bad command line, else 1. */
export function analyzeFailureExitCode(code: ErrorCode | undefined): ExitCodeValue {
  return code !== undefined && USAGE_CODES.has(code) ? ExitCode.usage : ExitCode.failed;
}
