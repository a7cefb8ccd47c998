import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../core';
import { errorReply, type ApiError } from './error-body';
import { routeFamily } from './route-family';

/** Node's parser errors mapped to API errors; anything else is unparsable HTTP (400). */
function clientError(code: string | undefined): ApiError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      code: 'invalid-input',
      message: 'The request was not received in time; the connection is closed.',
      status: 408,
      azure: 'Timeout',
    };
  if (code === 'HPE_HEADER_OVERFLOW')
    return { code: 'invalid-input', message: 'The request head is too large.', status: 431, azure: 'RequestHeaderFieldsTooLarge' };
  return { code: 'invalid-input', message: 'The request is not valid HTTP.', status: 400, azure: 'BadRequest' };
}

/** Method and target of the request line in the bytes that failed, when it is there (never logged whole). */
function requestLine(raw: unknown): { method: string; target: string } | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  const m = /^([A-Z]{1,16}) (\S+)/.exec(raw.subarray(0, 8192).toString('latin1'));
  return m ? { method: m[1]!, target: m[2]! } : undefined;
}

/**
 * Answers connection-level errors Node raises before a request reaches a route (header or request
 * timeout → 408, oversized head → 431, unparsable HTTP → 400) in the body shape of the route
 * family the request line names, with a trace id, then closes the connection. Nothing of the
 * request is echoed or logged beyond method, status and the code Node gave.
 */
export function clientErrorHandler(log: Logger): (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const line = requestLine(err.rawPacket);
    const traceId = randomUUID();
    const { status, body } = errorReply(routeFamily(line?.target ?? ''), clientError(err.code), traceId);
    log.debug('api client error', { method: line?.method, status, error: err.code, trace_id: traceId });
    const text = JSON.stringify(body);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\nX-Trace-Id: ${traceId}\r\nConnection: close\r\n\r\n${text}`,
      );
    }
    socket.destroy(err);
  };
}
