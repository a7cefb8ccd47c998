import type { WireError } from '../shared/errors';
import { detectStatus, wireMapping } from './errors';
import { analyzeFailure, detectFailure, genericFailure, thumbnailFailure } from './replies';
import type { RouteFamily } from './route-family';

/**
 * An error as the API shows it. `status` overrides the code's HTTP status (transport errors
 * such as 415 or 408 keep theirs on every route); `azure` overrides the analyze/generic code
 * and `kairos` the detect ErrCode where the code table has no exact match.
 */
export interface ApiError extends WireError {
  status?: number;
  azure?: string;
  kairos?: number;
}

/**
 * The status and body of an error reply in its route family's shape, with the trace id. The
 * message is the app's own: nothing of the request (URL, query, headers, body) is echoed.
 */
export function errorReply(family: RouteFamily, err: ApiError, traceId: string): { status: number; body: object } {
  const wire: WireError = { code: err.code, message: err.message };
  if (family === 'analyze' || family === 'thumbnail') {
    // Thumbnails answer errors in analyze's envelope, named by their own query.
    const body = family === 'thumbnail' ? thumbnailFailure(wire, traceId) : analyzeFailure(wire, traceId);
    if (err.azure && body.error) body.error = { code: err.azure, message: err.message };
    return { status: err.status ?? wireMapping(err.code).status, body };
  }
  if (family === 'detect') {
    const body = detectFailure(wire, traceId);
    if (err.kairos !== undefined) body.Errors = [{ Message: err.message, ErrCode: err.kairos }];
    return { status: err.status ?? detectStatus(err.code), body };
  }
  const body = genericFailure(wire, traceId);
  if (err.azure) body.error.code = err.azure;
  return { status: err.status ?? wireMapping(err.code).status, body };
}
