import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core';
import type { ApiCall, RawParams } from '../services/api';

/**
 * Turns a request into a transport-neutral call. The key comes from header `key` (the spec's POST
 * form) or query parameter `key` (GET form); either works on both methods. POST parameters are
 * the JSON body merged over the query string (so `details` may stay in the query, spec §4.1).
 */
export function callFromRequest(request: FastifyRequest, signal: AbortSignal): ApiCall {
  const { key: queryKey, ...query } = (request.query ?? {}) as RawParams;
  const header = request.headers.key;
  const key = first(header) ?? first(queryKey);
  let params: RawParams = query;
  // No body at all is `undefined` (or `null` on some routes); a JSON `null` that was sent is a
  // body that is not an object, like `42` or `[]`.
  if (request.method === 'POST' && request.body !== undefined && (request.body !== null || sentBody(request))) {
    if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
      throw new AppError('malformed-json', 'The JSON body must be an object such as {"image": "https://example.com/photo.jpg"}.');
    }
    const { key: _bodyKey, ...body } = request.body as RawParams;
    params = { ...query, ...body };
  }
  return { key, params, traceId: String(request.id), signal };
}

/** Whether the client sent body bytes (a length above 0 or a chunked body). */
function sentBody(request: FastifyRequest): boolean {
  const length = Number(request.headers['content-length'] ?? 0);
  return length > 0 || request.headers['transfer-encoding'] !== undefined;
}

function first(v: unknown): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s : undefined;
}

/**
 * An AbortSignal that fires when the client goes away before the reply is written: its socket
 * ends (read as soon as the FIN arrives; Node's server aborts the request then too) or closes.
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const socket = reply.raw.socket;
  const onGone = (): void => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  socket?.once('end', onGone);
  reply.raw.once('close', () => {
    socket?.off('end', onGone);
    onGone();
  });
  return controller.signal;
}
