import { randomUUID } from 'node:crypto';
import { createServer as createHttp, type Server as HttpServer } from 'node:http';
import { createServer as createHttps } from 'node:https';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppError, silentLogger, toWireError, type Logger } from '../core';
import type { ApiServices } from '../services/api';
import type { WireError } from '../shared/errors';
import { clientErrorHandler } from './client-errors';
import { detectStatus, wireMapping } from './errors';
import { analyzeFailure, detectFailure, genericFailure } from './replies';
import { registerOpenApi } from './openapi';
import { facesRoutes } from './routes/faces';
import { THUMBNAIL_PATH, thumbnailFailure, thumbnailRoutes } from './routes/thumbnail';
import { visionRoutes } from './routes/vision';

/** Time limits that stop a slow or idle client from holding a connection (ms). */
export interface ServerTimeouts {
  /** Whole request head must arrive within this (slowloris guard). Default 10 000. */
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
  const serverOpts = {
    headersTimeout: t.headersTimeoutMs,
    requestTimeout: t.requestTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    connectionsCheckingInterval: t.checkIntervalMs,
  };
  const app = Fastify({
    // Fastify's own logger would print URLs, and GET URLs carry the key: never enable it.
    logger: false,
    bodyLimit: opts.bodyLimitBytes ?? 64 * 1024,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    exposeHeadRoutes: false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    clientErrorHandler,
    serverFactory: (handler) =>
      (opts.tls
        ? createHttps({ ...serverOpts, cert: opts.tls.cert, key: opts.tls.key }, handler)
        : createHttp(serverOpts, handler)) as HttpServer,
  });
  // Only JSON bodies: uploads, raw bytes and form posts get a clear 415.
  app.removeContentTypeParser(['text/plain']);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-trace-id', String(request.id));
  });
  app.addHook('onResponse', async (request, reply) => {
    log.debug('api request', {
      method: request.method,
      path: request.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      trace_id: request.id,
    });
  });
  app.setErrorHandler((err: FastifyError, request, reply) => sendError(reply, request, fromFastifyError(err, log)));
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, request, {
      code: 'not-found',
      message: `No route ${request.method} ${request.url.split('?')[0]}. The API has GET and POST /ai/vision/analyze and /ai/faces/detect.`,
    }),
  );

  await registerOpenApi(app);
  await app.register(visionRoutes, { gateway: opts.api.gateway });
  await app.register(facesRoutes, { gateway: opts.api.gateway });
  await app.register(thumbnailRoutes, { gateway: opts.api.gateway });
  for (const extra of opts.extraRoutes ?? []) await app.register(extra);
  return app;
}

function fromFastifyError(err: FastifyError, log: Logger): WireError {
  if (err instanceof AppError) return toWireError(err);
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        code: 'payload-too-large',
        message: 'The request body is too large: send only the JSON parameters; the image goes by URL in `image`.',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        code: 'invalid-input',
        message:
          'Only JSON bodies (Content-Type: application/json) are accepted. File uploads, form posts and raw image bytes are not: pass a public image URL in `image`.',
        details: { status: 415 },
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'malformed-json', message: 'The body is empty although Content-Type is application/json.' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'malformed-json', message: 'The Content-Length does not match the body.' };
  }
  if (err instanceof SyntaxError || err.statusCode === 400)
    return { code: 'malformed-json', message: `The body is not valid JSON: ${err.message}` };
  log.error('api internal error', { error: err.stack ?? err.message });
  return toWireError(err);
}

function statusOf(err: WireError, onDetect: boolean): number {
  if (typeof err.details?.status === 'number') return err.details.status;
  return onDetect ? detectStatus(err.code) : wireMapping(err.code).status;
}

function sendError(reply: FastifyReply, request: FastifyRequest, err: WireError): FastifyReply {
  const traceId = String(request.id);
  const path = request.url.split('?')[0] ?? '';
  const { details: _d, ...wire } = err;
  if (path === '/ai/vision/analyze') {
    const body = analyzeFailure(wire, traceId);
    if (err.details?.status === 415) body.error = { code: 'UnsupportedMediaType', message: err.message };
    return reply.code(statusOf(err, false)).send(body);
  }
  if (path === THUMBNAIL_PATH) {
    const body = thumbnailFailure(wire, traceId);
    if (err.details?.status === 415) body.error = { code: 'UnsupportedMediaType', message: err.message };
    return reply.code(statusOf(err, false)).send(body);
  }
  if (path === '/ai/faces/detect' || path === '/ai/faces/train') {
    const body = detectFailure(wire, traceId);
    if (err.details?.status === 415) body.Errors = [{ Message: err.message, ErrCode: 1001 }];
    return reply.code(statusOf(err, true)).send(body);
  }
  return reply.code(statusOf(err, false)).send(genericFailure(wire, traceId));
}
