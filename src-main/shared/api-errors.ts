import type { ErrorCode } from './errors';

/**
 * How each error code is shown by the HTTP API (one table for the server and its clients):
 * the HTTP status plus the Azure code (analyze) and Kairos ErrCode (detect).
 */
export interface WireMapping {
  status: number;
  azure: string;
  kairos: number;
}

// Transport-level refusals keep their HTTP status on both routes; image and parameter problems
// are 400 for analyze (Azure) and HTTP 200 with an `Errors` body for detect (Kairos, spec §7).
const TABLE: Partial<Record<ErrorCode, WireMapping>> = {
  unauthorized: { status: 401, azure: 'Unauthorized', kairos: 3003 },
  'insufficient-credit': { status: 402, azure: 'InsufficientCredit', kairos: 3010 },
  'tier-unavailable': { status: 403, azure: 'TierUnavailable', kairos: 3011 },
  'rate-limited': { status: 429, azure: 'TooManyRequests', kairos: 3000 },
  'payload-too-large': { status: 413, azure: 'PayloadTooLarge', kairos: 1004 },
  'malformed-json': { status: 400, azure: 'BadArgument', kairos: 1003 },
  'not-found': { status: 404, azure: 'NotFound', kairos: 3002 },
  'missing-parameter': { status: 400, azure: 'BadArgument', kairos: 1002 },
  'invalid-parameter': { status: 400, azure: 'BadArgument', kairos: 1003 },
  'invalid-input': { status: 400, azure: 'BadArgument', kairos: 1003 },
  'invalid-list': { status: 400, azure: 'BadArgument', kairos: 1003 },
  'unsupported-feature': { status: 400, azure: 'NotSupportedVisualFeature', kairos: 1003 },
  'invalid-details': { status: 400, azure: 'InvalidDetails', kairos: 1003 },
  'invalid-image-url': { status: 400, azure: 'InvalidImageUrl', kairos: 5001 },
  'unsupported-scheme': { status: 400, azure: 'InvalidImageUrl', kairos: 5001 },
  'image-fetch-failed': { status: 400, azure: 'InvalidImageUrl', kairos: 5001 },
  // The image's server asked us to come back later: an image URL failure, not our client's 429.
  'image-rate-limited': { status: 400, azure: 'InvalidImageUrl', kairos: 5001 },
  'image-timeout': { status: 400, azure: 'InvalidImageUrl', kairos: 5001 },
  'blocked-address': { status: 400, azure: 'InvalidImageUrl', kairos: 5001 },
  'file-not-found': { status: 400, azure: 'InvalidImageUrl', kairos: 5001 },
  'invalid-image-format': { status: 400, azure: 'InvalidImageFormat', kairos: 5000 },
  'decode-failed': { status: 400, azure: 'InvalidImageFormat', kairos: 5000 },
  'image-too-large': { status: 400, azure: 'InvalidImageSize', kairos: 5000 },
  'image-too-small': { status: 400, azure: 'InvalidImageSize', kairos: 5000 },
  'image-dimensions-exceeded': { status: 400, azure: 'InvalidImageSize', kairos: 5000 },
  'no-faces': { status: 200, azure: 'FailedToProcess', kairos: 5002 },
  'too-many-faces': { status: 200, azure: 'FailedToProcess', kairos: 5010 },
  'model-missing': { status: 500, azure: 'FailedToProcess', kairos: 3001 },
  'model-failed': { status: 500, azure: 'FailedToProcess', kairos: 3001 },
  cancelled: { status: 500, azure: 'CancelledRequest', kairos: 3001 },
  'remote-failed': { status: 502, azure: 'FailedToProcess', kairos: 3001 },
};

const INTERNAL: WireMapping = { status: 500, azure: 'InternalServerError', kairos: 3001 };

/** The wire mapping of a code; unknown codes are internal errors. */
export function wireMapping(code: ErrorCode): WireMapping {
  return TABLE[code] ?? INTERNAL;
}

/** The error code behind a Kairos ErrCode (first match), for clients of a remote server. */
export function codeFromKairos(errCode: number): ErrorCode {
  const hit = (Object.entries(TABLE) as Array<[ErrorCode, WireMapping]>).find(([, m]) => m.kairos === errCode);
  return hit ? hit[0] : 'remote-failed';
}

/** The error code behind an Azure code of an analyze envelope (for clients of a remote server). */
export function codeFromAzure(azure: string, httpStatus: number): ErrorCode {
  if (httpStatus === 401) return 'unauthorized';
  if (httpStatus === 402) return 'insufficient-credit';
  if (httpStatus === 429) return 'rate-limited';
  if (httpStatus === 413) return 'payload-too-large';
  const hit = (Object.entries(TABLE) as Array<[ErrorCode, WireMapping]>).find(([, m]) => m.azure === azure);
  return hit ? hit[0] : httpStatus >= 500 ? 'remote-failed' : 'invalid-parameter';
}
