import { randomUUID } from 'node:crypto';
import { createServer as createHttp, type Server as HttpServer } from 'node:http';
import { createServer as createHttps } from 'node:https';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { silentLogger, type Logger } from '../core';
import type { ApiServices } from '../services/api';
import type { IncomingMessage } from 'node:http';
import { clientErrorHandler, connectHandler, requestTracker, unmetRequirement } from './client-errors';
import { fromFastifyError, methodNotAllowed, sendError, shuttingDown } from './fastify-errors';
import { registerOpenApi } from './openapi';
import { loggablePath, pathOf } from './route-family';
import { facesRoutes } from './routes/faces';
import { thumbnailRoutes } from './routes/thumbnail';
import { visionRoutes } from './routes/vision';

/** Time limits that stop a slow or idle client from holding a connection (ms). */
export interface ServerTimeouts {
  /** Whole request head must arrive within this (slowloris guard); over HTTPS also the TLS handshake. Default 10 000. */
  headersTimeoutMs: number;
  /** Whole request (head and body) must arrive within this. Default 30 000. */
  requestTimeoutMs: number;
  /** Idle keep-alive connections are closed after this. Default 5 000. */
  keepAliveTimeoutMs: number;
  /** How often the server checks the two limits above. Default 1 000. */
  checkIntervalMs: number;
}

/** Options of the API server. */
export interface HttpServerOptions {
  api: ApiServices;
  /** PEM certificate and key: HTTPS when given, plain HTTP otherwise (loopback only; the CLI checks). */
  tls?: { cert: string; key: string };
  /** Largest accepted request body, bytes. Default 64 KiB (parameters only, never image bytes). */
  bodyLimitBytes?: number;
  timeouts?: Partial<ServerTimeouts>;
  /** Request log lines (method, path without query, status, ms, trace id); never keys. */
  logger?: Logger;
  /**
   * Extra route plugins registered after the API routes, e.g. the web-mode UI bridge:
   * `extraRoutes: [bridgeRoutes(services)]`. Each is registered with `app.register`.
   */
  extraRoutes?: Array<(app: FastifyInstance) => Promise<void>>;
}

/** The methods the server's routes use: a path served by some of them answers others with 405. */
const ROUTE_METHODS = ['GET', 'POST'] as const;

const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
};

/**
 * Builds the local API server (not yet listening): `GET|POST /ai/vision/analyze`,
 * `/ai/faces/detect` (and its alias `/ai/faces/train`). Every response carries `X-Trace-Id`.
 * Call `app.listen({ host, port })`; `app.server.address()` gives the bound port.
 */
export async function createHttpServer(opts: HttpServerOptions): Promise<FastifyInstance> {
  const t = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const log = opts.logger ?? silentLogger;
  // A timed-out request's 408 takes its route's error shape from what this recorded.
  const requests = requestTracker();
  const serverOpts = {
    headersTimeout: t.headersTimeoutMs,
    requestTimeout: t.requestTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    connectionsCheckingInterval: t.checkIntervalMs,
    // Node's own 400 for a missing Host has no body and no trace id: the onRequest hook answers.
    requireHostHeader: false,
  };
  // Requests whose Expect header Node cannot meet (it would answer a bare 417 itself).
  const expectationFailed = new WeakSet<IncomingMessage>();
  const app = Fastify({
    // Fastify's own logger would print URLs, and GET URLs carry the key: never enable it.
    logger: false,
    bodyLimit: opts.bodyLimitBytes ?? 64 * 1024,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    exposeHeadRoutes: false,
    // A JSON body with a `__proto__` or `constructor.prototype` key is valid JSON: the key is
    // dropped as the parse reads it (never merged into an object's prototype) and the call is
    // read like any other with an unknown key, instead of a misleading "not valid JSON".
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    // Fastify's own 503 would be a bare body of its own without a trace id: the hook below answers.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    clientErrorHandler: clientErrorHandler(log, requests),
    // Requests Fastify cannot route (a URL with bad percent-encoding): its default reply quotes
    // the whole URL, key included, and carries no trace id. The hooks do not run for these.
    frameworkErrors: (err, request, reply) => {
      const error = fromFastifyError(err, log);
      logRequest(log, request, error.status ?? 400);
      void sendError(reply, request, error);
    },
    serverFactory: (handler) => {
      // The header timeout starts once TLS is set up: a client that never finishes the handshake
      // was held for TLS's own 120 s default, now for the same time as a head that never arrives.
      const server = (
        opts.tls
          ? createHttps({ ...serverOpts, cert: opts.tls.cert, key: opts.tls.key, handshakeTimeout: t.headersTimeoutMs }, handler)
          : createHttp(serverOpts, handler)
      ) as HttpServer;
      requests.track(server);
      server.on('checkExpectation', (req: IncomingMessage, res) => {
        expectationFailed.add(req);
        handler(req, res);
      });
      server.on('connect', connectHandler(log));
      return server;
    },
  });
  // Only JSON bodies: uploads, raw bytes and form posts get a clear 415.
  app.removeContentTypeParser(['text/plain']);

  // Calls still arriving on busy kept-alive connections once close() has begun get a 503 in
  // their route's shape; Fastify has already set `Connection: close` on them.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-trace-id', String(request.id));
    if (closing) return sendError(reply, request, shuttingDown());
    const unmet = unmetRequirement(request.raw, expectationFailed);
    if (unmet) return sendError(reply.header('connection', 'close'), request, unmet);
  });
  app.addHook('onResponse', async (request, reply) => logRequest(log, request, reply.statusCode, reply.elapsedTime));
  app.setErrorHandler((err: FastifyError, request, reply) => sendError(reply, request, fromFastifyError(err, log)));
  app.setNotFoundHandler((request, reply) => {
    const allowed = ROUTE_METHODS.filter((method) => app.hasRoute({ method, url: pathOf(request.url) }));
    if (allowed.length) return sendError(reply.header('allow', allowed.join(', ')), request, methodNotAllowed(request.method, allowed));
    return sendError(reply, request, {
      // The path is not repeated: a client may have put anything in it, a key included.
      code: 'not-found',
      message: `No route for ${request.method} on this path. The API has GET and POST /ai/vision/analyze, /ai/vision/thumbnail and /ai/faces/detect.`,
    });
  });

  await registerOpenApi(app);
  await app.register(visionRoutes, { gateway: opts.api.gateway });
  await app.register(facesRoutes, { gateway: opts.api.gateway });
  await app.register(thumbnailRoutes, { gateway: opts.api.gateway });
  for (const extra of opts.extraRoutes ?? []) await app.register(extra);
  return app;
}

/** One request log line: method, a path safe to log (never the query), status, ms, trace id. */
function logRequest(log: Logger, request: FastifyRequest, status: number, elapsedMs?: number): void {
  log.debug('api request', {
    method: request.method,
    path: loggablePath(request.routeOptions?.url, request.url),
    status,
    ...(elapsedMs === undefined ? {} : { ms: Math.round(elapsedMs) }),
    trace_id: request.id,
  });
}
