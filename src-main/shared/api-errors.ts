import type { ErrorCode } from './errors';

/**
 * Kairos ErrCodes (upstream-apis.md §2.3, spec §7), by meaning: the one table of them. The detect
 * service's `{ Errors }` bodies, the wire table below, the OpenAPI document and the CLI's exit
 * codes all read these names.
 */
export const KAIROS = {
  missingParameter: 1002,
  invalidParameter: 1003,
  /** Upload or raw body instead of JSON (HTTP 415). */
  unsupportedMediaType: 1001,
  payloadTooLarge: 1004,
  rateLimited: 3000,
  internal: 3001,
  notFound: 3002,
  unauthorized: 3003,
  insufficientCredit: 3010,
  tierUnavailable: 3011,
  invalidImage: 5000,
  invalidUrl: 5001,
  noFaces: 5002,
  tooManyFaces: 5010,
} as const;
export type KairosCode = (typeof KAIROS)[keyof typeof KAIROS];

/** Kairos' own messages, verbatim from the reference, for the codes detect answers itself. */
export const KAIROS_MESSAGES: Readonly<Partial<Record<KairosCode, string>>> = {
  [KAIROS.missingParameter]: 'required parameter missing',
  [KAIROS.invalidParameter]: 'an invalid parameter was sent',
  [KAIROS.invalidImage]: 'an invalid image was sent must be jpg or png format',
  [KAIROS.invalidUrl]: 'an invalid image URL was sent',
  [KAIROS.noFaces]: 'no faces found in the image',
  [KAIROS.tooManyFaces]: 'too many faces in image',
};

/**
 * How each error code is shown by the HTTP API (one table for the server and its clients):
 * the HTTP status plus the Azure code (analyze) and Kairos ErrCode (detect).
 */
export interface WireMapping {
  status: number;
  azure: string;
  kairos: KairosCode;
}

// Transport-level refusals keep their HTTP status on both routes; image and parameter problems
// are 400 for analyze (Azure) and HTTP 200 with an `Errors` body for detect (Kairos, spec §7).
const TABLE: Partial<Record<ErrorCode, WireMapping>> = {
  unauthorized: { status: 401, azure: 'Unauthorized', kairos: KAIROS.unauthorized },
  'insufficient-credit': { status: 402, azure: 'InsufficientCredit', kairos: KAIROS.insufficientCredit },
  'tier-unavailable': { status: 403, azure: 'TierUnavailable', kairos: KAIROS.tierUnavailable },
  'rate-limited': { status: 429, azure: 'TooManyRequests', kairos: KAIROS.rateLimited },
  'payload-too-large': { status: 413, azure: 'PayloadTooLarge', kairos: KAIROS.payloadTooLarge },
  'malformed-json': { status: 400, azure: 'BadArgument', kairos: KAIROS.invalidParameter },
  'not-found': { status: 404, azure: 'NotFound', kairos: KAIROS.notFound },
  'missing-parameter': { status: 400, azure: 'BadArgument', kairos: KAIROS.missingParameter },
  'invalid-parameter': { status: 400, azure: 'BadArgument', kairos: KAIROS.invalidParameter },
  'invalid-input': { status: 400, azure: 'BadArgument', kairos: KAIROS.invalidParameter },
  'invalid-list': { status: 400, azure: 'BadArgument', kairos: KAIROS.invalidParameter },
  'unsupported-feature': { status: 400, azure: 'NotSupportedVisualFeature', kairos: KAIROS.invalidParameter },
  'invalid-details': { status: 400, azure: 'InvalidDetails', kairos: KAIROS.invalidParameter },
  'unsupported-language': { status: 400, azure: 'NotSupportedLanguage', kairos: KAIROS.invalidParameter },
  'invalid-image-url': { status: 400, azure: 'InvalidImageUrl', kairos: KAIROS.invalidUrl },
  'unsupported-scheme': { status: 400, azure: 'InvalidImageUrl', kairos: KAIROS.invalidUrl },
  'image-fetch-failed': { status: 400, azure: 'InvalidImageUrl', kairos: KAIROS.invalidUrl },
  // The image's server asked us to come back later: an image URL failure, not our client's 429.
  'image-rate-limited': { status: 400, azure: 'InvalidImageUrl', kairos: KAIROS.invalidUrl },
  'image-timeout': { status: 400, azure: 'InvalidImageUrl', kairos: KAIROS.invalidUrl },
  'blocked-address': { status: 400, azure: 'InvalidImageUrl', kairos: KAIROS.invalidUrl },
  'file-not-found': { status: 400, azure: 'InvalidImageUrl', kairos: KAIROS.invalidUrl },
  'invalid-image-format': { status: 400, azure: 'InvalidImageFormat', kairos: KAIROS.invalidImage },
  'decode-failed': { status: 400, azure: 'InvalidImageFormat', kairos: KAIROS.invalidImage },
  'image-too-large': { status: 400, azure: 'InvalidImageSize', kairos: KAIROS.invalidImage },
  'image-too-small': { status: 400, azure: 'InvalidImageSize', kairos: KAIROS.invalidImage },
  'image-dimensions-exceeded': { status: 400, azure: 'InvalidImageSize', kairos: KAIROS.invalidImage },
  'no-faces': { status: 200, azure: 'FailedToProcess', kairos: KAIROS.noFaces },
  'too-many-faces': { status: 200, azure: 'FailedToProcess', kairos: KAIROS.tooManyFaces },
  'model-missing': { status: 500, azure: 'FailedToProcess', kairos: KAIROS.internal },
  'model-failed': { status: 500, azure: 'FailedToProcess', kairos: KAIROS.internal },
  cancelled: { status: 500, azure: 'CancelledRequest', kairos: KAIROS.internal },
  'remote-failed': { status: 502, azure: 'FailedToProcess', kairos: KAIROS.internal },
};

const INTERNAL: WireMapping = { status: 500, azure: 'InternalServerError', kairos: KAIROS.internal };

/** The wire mapping of a code; unknown codes are internal errors. */
export function wireMapping(code: ErrorCode): WireMapping {
  return TABLE[code] ?? INTERNAL;
}

// Several codes share an Azure code or ErrCode (BadArgument/1003, FailedToProcess/3001): a
// remote reply carrying one is read as the general code, never as whichever shares it first
// (a remote model failure was `no-faces`, a bad parameter `malformed-json`).
const GENERAL: readonly ErrorCode[] = ['invalid-parameter', 'remote-failed'];

/** The code a remote reply means: the general one when several share the mark, else the first match. */
function codeOf(matches: (m: WireMapping) => boolean): ErrorCode | undefined {
  const general = GENERAL.find((c) => matches(TABLE[c]!));
  return general ?? (Object.entries(TABLE) as Array<[ErrorCode, WireMapping]>).find(([, m]) => matches(m))?.[0];
}

/** The error code behind a Kairos ErrCode, for clients of a remote server. */
export function codeFromKairos(errCode: number): ErrorCode {
  return codeOf((m) => m.kairos === errCode) ?? 'remote-failed';
}

/** The error code behind an Azure code of an analyze envelope (for clients of a remote server). */
export function codeFromAzure(azure: string, httpStatus: number): ErrorCode {
  if (httpStatus === 401) return 'unauthorized';
  if (httpStatus === 402) return 'insufficient-credit';
  if (httpStatus === 429) return 'rate-limited';
  if (httpStatus === 413) return 'payload-too-large';
  return codeOf((m) => m.azure === azure) ?? (httpStatus >= 500 ? 'remote-failed' : 'invalid-parameter');
}
