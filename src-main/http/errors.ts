import type { ErrorCode, WireError } from '../shared/errors';
import { wireMapping } from '../shared/api-errors';

export { wireMapping };

/**
 * Azure codes of refusals made before or outside an operation (unparsable HTTP, a timeout, an
 * oversized head, a body that is not JSON): the code table has no entry for them, and the
 * OpenAPI document must list them with the table's codes because analyze and thumbnail send them.
 */
export const TRANSPORT_AZURE = {
  badRequest: 'BadRequest',
  timeout: 'Timeout',
  headTooLarge: 'RequestHeaderFieldsTooLarge',
  unsupportedMediaType: 'UnsupportedMediaType',
  unavailable: 'ServiceUnavailable',
  methodNotAllowed: 'MethodNotAllowed',
} as const;

/** Detect-route HTTP status: 200 for everything Kairos reports in the body, else the transport status. */
export function detectStatus(code: ErrorCode): number {
  const m = wireMapping(code);
  return m.status === 400 && code !== 'malformed-json' ? 200 : m.status;
}

/** Kairos `{ Errors }` item for an error. */
export function kairosError(err: WireError): { Message: string; ErrCode: number } {
  return { Message: err.message, ErrCode: wireMapping(err.code).kairos };
}
