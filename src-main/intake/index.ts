/**
 * Image intake: turns an input (http/https URL; in the desktop app and CLI also a local path or
 * `file:` URL) into a validated, decoded image. Fetching is bounded (timeouts, body size,
 * redirects, retries), validation is by content (JPEG/PNG magic, header size limits before
 * decoding) and the private-network policy is checked on every connection. See docs/intake.md.
 */
export {
  loadImage,
  createImageLoader,
  type DecodeGate,
  type LoadedImage,
  type LoadedPixels,
  type LoadOptions,
  type ImageLoader,
} from './load-image';
export {
  intakeOptions,
  DEFAULT_INTAKE_OPTIONS,
  APP_VERSION,
  type IntakeOptions,
  type IntakeMode,
  type HostLookup,
  type ResolvedAddress,
} from './options';
export { intakeErrorKind, type IntakeErrorKind } from './errors';
export { urlHost } from './input';
export { blockedRangeOf, type BlockedRange } from './address-policy';
export { CONTENT_LABELS, sniffContent, type ContentType } from './sniff';
export { parseRetryAfterMs, backoffDelayMs } from './retry-policy';
export type { ImageFormat } from './validate';
export type { RgbImage, Thumbnail } from '../inference';
