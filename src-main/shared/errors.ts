/**
 * Stable error codes shared by every layer and transport (CLI, IPC, HTTP).
 * Codes are kebab-case and never change meaning once released; add new ones at the end of a group.
 */
export type ErrorCode =
  // generic
  | 'invalid-input'
  | 'not-found'
  | 'cancelled'
  | 'internal'
  | 'invalid-list'
  // the database file (open, write, lock)
  | 'storage-failed'
  | 'batch-locked'
  // models and inference
  | 'model-missing'
  | 'model-failed'
  | 'decode-failed'
  // image intake (fetch, validate, decode)
  | 'invalid-image-url'
  | 'unsupported-scheme'
  | 'image-fetch-failed'
  | 'image-timeout'
  | 'image-too-large'
  | 'invalid-image-format'
  | 'image-too-small'
  | 'image-dimensions-exceeded'
  | 'blocked-address'
  | 'file-not-found'
  | 'image-rate-limited'
  // operation parameters and results
  | 'missing-parameter'
  | 'invalid-parameter'
  | 'unsupported-feature'
  | 'invalid-details'
  | 'unsupported-language'
  | 'no-faces'
  | 'too-many-faces'
  // API accounts and transport
  | 'unauthorized'
  | 'insufficient-credit'
  | 'rate-limited'
  | 'tier-unavailable'
  | 'payload-too-large'
  | 'malformed-json'
  | 'remote-failed';

/** An error as it crosses a process or network boundary: plain data, structured-clone safe. */
export interface WireError {
  code: ErrorCode;
  message: string;
  details?: Record<string, string | number | boolean>;
}

/** Outcome envelope used on every boundary instead of throwing across it. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: WireError };
