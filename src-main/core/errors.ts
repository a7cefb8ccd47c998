import type { ErrorCode, WireError } from '../shared/errors';

/** An expected failure with a stable code (bad input, unreachable URL, missing model…). */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: WireError['details'];

  constructor(code: ErrorCode, message: string, opts?: { cause?: unknown; details?: WireError['details'] }) {
    super(message, { cause: opts?.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = opts?.details;
  }
}

/** A broken invariant: only buggy code throws it, never user input. */
export class BugError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BugError';
  }
}

/** True for aborts, whether from an AbortSignal or an AppError('cancelled'). */
export function isCancellation(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'cancelled';
  return err instanceof Error && err.name === 'AbortError';
}

/**
 * Turns anything thrown into plain data for a boundary. AppErrors keep their code and message;
 * anything else becomes `internal` (the caller logs the stack).
 */
export function toWireError(err: unknown): WireError {
  if (err instanceof AppError) {
    return err.details ? { code: err.code, message: err.message, details: err.details } : { code: err.code, message: err.message };
  }
  if (err instanceof Error && err.name === 'AbortError') return { code: 'cancelled', message: 'The operation was cancelled.' };
  return { code: 'internal', message: 'An unexpected internal error occurred.' };
}
