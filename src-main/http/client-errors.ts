import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Answers connection-level errors Node raises before a request reaches a route (header or request
 * timeout → 408, oversized head → 431, unparsable HTTP → 400) with the API's JSON error shape and
 * a trace id, then closes the connection. Replaces Fastify's default, which sends no trace id.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Timeout', 'The request was not received in time; the connection is closed.']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'RequestHeaderFieldsTooLarge', 'The request head is too large.']
        : [400, 'BadRequest', 'The request is not valid HTTP.'];
  const traceId = randomUUID();
  const body = JSON.stringify({ error: { code, message }, trace_id: traceId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Trace-Id: ${traceId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
