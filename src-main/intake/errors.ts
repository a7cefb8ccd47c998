import type { ErrorCode } from '../shared/errors';

/**
 * How a later layer reports an intake failure: `format` when the bytes are not an acceptable
 * image (Kairos 5000, Azure InvalidImageFormat/InvalidImageSize), `url` when the input could not
 * be reached or is not allowed (Kairos 5001, Azure InvalidImageUrl).
 */
export type IntakeErrorKind = 'format' | 'url';

const KINDS: Partial<Record<ErrorCode, IntakeErrorKind>> = {
  'invalid-image-format': 'format',
  'image-too-small': 'format',
  'image-dimensions-exceeded': 'format',
  'image-too-large': 'format',
  'decode-failed': 'format',
  'invalid-image-url': 'url',
  'unsupported-scheme': 'url',
  'image-fetch-failed': 'url',
  'image-rate-limited': 'url',
  'image-timeout': 'url',
  'blocked-address': 'url',
  'file-not-found': 'url',
};

/** The intake kind of an error code, or `undefined` for codes intake does not raise (e.g. `cancelled`). */
export function intakeErrorKind(code: ErrorCode): IntakeErrorKind | undefined {
  return KINDS[code];
}
