import { KAIROS } from '../shared/api-errors';
import type { ErrorCode } from '../shared/errors';
import { ExitCode, type ExitCodeValue } from './exit-codes';

/**
 * Exit codes of the single-image commands (detect, analyze) by outcome, as README's exit-code
 * paragraph says: a spec-level result (no faces, too many faces) is a normal answer, a problem
 * with the command line is 2, anything else that stopped the command (image unreachable, not an
 * image, too large, model failure) is 1.
 */
const KAIROS_EXIT: Readonly<Record<number, ExitCodeValue>> = {
  [KAIROS.missingParameter]: ExitCode.usage,
  [KAIROS.invalidParameter]: ExitCode.usage,
  /** invalid image (format, size) */
  [KAIROS.invalidImage]: ExitCode.failed,
  /** invalid image URL (unreachable, 404, blocked) */
  [KAIROS.invalidUrl]: ExitCode.failed,
  /** no faces found / too many faces: an answer */
  [KAIROS.noFaces]: ExitCode.ok,
  [KAIROS.tooManyFaces]: ExitCode.ok,
};

/** The exit code for a Kairos detect body: the worst of its errors' codes (0 without errors). */
export function detectExitCode(errCodes: readonly number[]): ExitCodeValue {
  const codes = errCodes.map((c) => KAIROS_EXIT[c] ?? ExitCode.failed);
  return codes.includes(ExitCode.usage) ? ExitCode.usage : codes.includes(ExitCode.failed) ? ExitCode.failed : ExitCode.ok;
}

/** Error codes of the contract's parameter problems: the command line asked for something invalid. */
export const PARAMETER_CODES: readonly ErrorCode[] = [
  'invalid-parameter',
  'missing-parameter',
  'unsupported-feature',
  'invalid-details',
  'unsupported-language',
];
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(PARAMETER_CODES);

/** The exit code for a failed analyze: 2 for a bad command line, else 1. */
export function analyzeFailureExitCode(code: ErrorCode | undefined): ExitCodeValue {
  return code !== undefined && USAGE_CODES.has(code) ? ExitCode.usage : ExitCode.failed;
}
