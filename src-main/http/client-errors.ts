import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Logger } from '../core';
import { errorReply, type ApiError } from './error-body';
import { TRANSPORT_AZURE } from './errors';
import { routeFamily } from './route-family';

/** Node's parser errors mapped to API errors; anything else is unparsable HTTP (400). */
function clientError(code: string | undefined): ApiError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      code: 'invalid-input',
      message: 'The request was not received in time; the connection is closed.',
      status: 408,
      azure: TRANSPORT_AZURE.timeout,
    };
  if (code === 'HPE_HEADER_OVERFLOW')
    return { code: 'invalid-input', message: 'The request head is too large.', status: 431, azure: TRANSPORT_AZURE.headTooLarge };
  return { code: 'invalid-input', message: 'The request is not valid HTTP.', status: 400, azure: TRANSPORT_AZURE.badRequest };
}

/** Method and target of the request line in the bytes that failed, when it is there (never logged whole). */
function requestLine(raw: unknown): { method: string; target: string } | undefined {
  const text = Buffer.isBuffer(raw) ? raw.subarray(0, 8192).toString('latin1') : typeof raw === 'string' ? raw : '';
  const m = /^([A-Z]{1,16}) (\S+)/.exec(text);
  return m ? { method: m[1]!, target: m[2]! } : undefined;
}

/** How much of a request head is kept to find its request line, in characters. */
const MAX_HEAD_CHARS = 8192;

/** Where a connection's current request is known from, when its error carries no bytes of it. */
export interface RequestTracker {
  /** Starts recording the requests of `server`'s connections. */
  track(server: HttpServer): void;
  /** Method and target of the socket's current request, when its request line has arrived. */
  lineOf(socket: Socket): { method: string; target: string } | undefined;
}

/**
 * Records each connection's current request: its method and raw target once Node has parsed the
 * head, else the head's first bytes received so far. A timeout error carries no bytes of the
 * request (Node sets `rawPacket` only for parse errors), so a 408 learns its route family here.
 * Reading the head from the socket's `data` events makes Node parse the connection in JS instead
 * of natively: one more copy per chunk, on requests of at most 64 KiB.
 */
export function requestTracker(): RequestTracker {
  const current = new WeakMap<Socket, { line?: { method: string; target: string }; head: string }>();
  return {
    track(server) {
      // HTTPS hands HTTP the TLS socket on `secureConnection`; `connection` has the encrypted one.
      server.on(server instanceof HttpsServer ? 'secureConnection' : 'connection', (socket: Socket) => {
        const state: { line?: { method: string; target: string }; head: string } = { head: '' };
        current.set(socket, state);
        socket.on('data', (chunk: Buffer | string) => {
          // Node's parser saw this chunk first (its listener came first), so a head it completed has set `line`.
          if (state.line || state.head.length >= MAX_HEAD_CHARS) return;
          const text = typeof chunk === 'string' ? chunk : chunk.subarray(0, MAX_HEAD_CHARS).toString('latin1');
          state.head += text.slice(0, MAX_HEAD_CHARS - state.head.length);
        });
      });
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const state = current.get(req.socket);
        if (!state) return;
        const line = { method: req.method ?? '', target: req.url ?? '' };
        state.line = line;
        state.head = '';
        // Later bytes on a kept-alive connection start the next request. Any of it sent before
        // this reply finished is not seen: that request's timeout falls back to the generic shape.
        res.once('finish', () => {
          if (state.line === line) state.line = undefined;
        });
      });
    },
    lineOf(socket) {
      const state = current.get(socket);
      return state?.line ?? requestLine(state?.head);
    },
  };
}

/**
 * Answers connection-level errors Node raises before a request reaches a route (header or request
 * timeout → 408, oversized head → 431, unparsable HTTP → 400) in the body shape of the route
 * family the request line names, with a trace id, then closes the connection. The request line
 * comes from the bytes that failed to parse, else from `requests`; when it never arrived the
 * reply takes the generic shape. Nothing of the request is echoed or logged beyond method,
 * status and the code Node gave.
 */
export function clientErrorHandler(
  log: Logger,
  requests?: RequestTracker,
): (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const line = requestLine(err.rawPacket) ?? requests?.lineOf(socket);
    const traceId = randomUUID();
    const { status, body } = errorReply(routeFamily(line?.target ?? ''), clientError(err.code), traceId);
    log.debug('api client error', { method: line?.method, status, error: err.code, trace_id: traceId });
    writeClosingReply(socket, status, body, traceId);
    socket.destroy(err);
  };
}

/** Writes a whole JSON reply on a socket no ServerResponse owns, ending with `Connection: close`. */
function writeClosingReply(socket: Socket, status: number, body: object, traceId: string): void {
  const text = JSON.stringify(body);
  if (!socket.writable) return;
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nX-Trace-Id: ${traceId}\r\nConnection: close\r\n\r\n${text}`,
  );
}

/**
 * A CONNECT request (Node gives it to the `connect` event, not to the router, and without a
 * listener drops the connection unanswered): this server is no proxy, so a 404 in the generic
 * shape, then the connection is closed. Logged like any request: method, status, trace id.
 */
export function connectHandler(log: Logger): (req: IncomingMessage, socket: Socket) => void {
  return (req, socket) => {
    const traceId = randomUUID();
    const { status, body } = errorReply(
      'generic',
      {
        code: 'not-found',
        message: `No route for ${req.method ?? 'CONNECT'}: this server is not a proxy. The API has GET and POST /ai/vision/analyze, /ai/vision/thumbnail and /ai/faces/detect.`,
      },
      traceId,
    );
    log.debug('api request', { method: req.method, status, trace_id: traceId });
    socket.on('error', () => undefined);
    writeClosingReply(socket, status, body, traceId);
    socket.end();
  };
}

/**
 * Requests Node's HTTP server would answer by itself with an empty body and no trace id (an
 * HTTP/1.1 request without `Host` → 400, an `Expect` other than `100-continue` → 417). The
 * server lets them through to the router instead (`requireHostHeader: false`, a
 * `checkExpectation` listener that marks them with `expectationFailed`); the `onRequest` hook
 * refuses them with this, in the route family's shape.
 */
export function unmetRequirement(req: IncomingMessage, expectationFailed: WeakSet<IncomingMessage>): ApiError | undefined {
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    return {
      code: 'invalid-input',
      message: 'The request is not valid HTTP: an HTTP/1.1 request must carry a Host header.',
      status: 400,
      azure: TRANSPORT_AZURE.badRequest,
    };
  }
  if (expectationFailed.has(req)) {
    return {
      code: 'invalid-input',
      message: 'The request\'s Expect header cannot be met: only "100-continue" is supported.',
      status: 417,
      azure: TRANSPORT_AZURE.badRequest,
    };
  }
  return undefined;
}
