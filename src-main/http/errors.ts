import type { ErrorCode, WireError } from '../shared/errors';
import { wireMapping } from '../shared/api-errors';

export { wireMapping };

/** Detect-route HTTP status: 200 for everything Kairos reports in the body, else the transport status. */
export function detectStatus(code: ErrorCode): number {
  const m = wireMapping(code);
  return m.status === 400 && code !== 'malformed-json' ? 200 : m.status;
}

/** Kairos `{ Errors }` item for an error. */
export function kairosError(err: WireError): { Message: string; ErrCode: number } {
  return { Message: err.message, ErrCode: wireMapping(err.code).kairos };
}
