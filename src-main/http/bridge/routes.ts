import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, toWireError, type Logger } from '../../core';
import { isBackendChannel, isChannel, type ExportFormat, type HandlerTable, type ResultFilter } from '../../shared';
import { WEB_INVOKE_BODY_MAX_BYTES } from '../../shared/contract';
import { wireMapping } from '../errors';
import { dispatch } from './dispatch';
import type { EventHub } from './events';
import { refuse, refusal, requestToken, sessionCookieName } from './guard';
import { filterSchema } from './handlers';
import { readStatic } from './static';

/** Thumbnails may be kept but are revalidated on every use (their URL is not a stable name for the bytes). */
const THUMBNAIL_CACHE_CONTROL = 'private, no-cache';
/** Hex digits of the bytes' sha256 in a thumbnail's ETag: enough to tell versions of one item apart. */
const THUMBNAIL_ETAG_HEX_CHARS = 32;

/** A strong ETag naming exactly these bytes. */
function thumbnailEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('hex').slice(0, THUMBNAIL_ETAG_HEX_CHARS)}"`;
}

/** Whether an `If-None-Match` header (a list of tags, `W/` tags, or `*`) names `etag`. */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Thumbnail bytes of an item, or null when it has none. */
export type ThumbnailSource = (itemId: number) => Promise<{ bytes: Uint8Array; contentType: string } | null>;

/** The export of a filter as a byte/text stream; throws (before any byte) when it cannot start, e.g. `not-found` for a deleted batch. */
export type ExportSource = (filter: ResultFilter, format: ExportFormat) => Readable | AsyncIterable<string | Uint8Array>;

export interface BridgeOptions {
  handlers: HandlerTable;
  events: EventHub;
  /** Per-start session token; every request must carry it (query, header or session cookie). */
  token: string;
  /** Folder of the built renderer (`out/renderer`); null serves a page explaining how to build it. */
  rendererDir: string | null;
  thumbnails?: ThumbnailSource;
  exportResults?: ExportSource;
  logger: Logger;
  /** Heartbeat of the event stream, ms (keeps proxies and idle timeouts away). */
  heartbeatMs?: number;
}

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

function fail(reply: FastifyReply, status: number, err: unknown): FastifyReply {
  return reply.code(status).send({ ok: false, error: toWireError(err) });
}

/** `256 MiB`: a byte limit in binary megabytes. */
function mibText(bytes: number): string {
  return `${(bytes / 2 ** 20).toLocaleString('en', { maximumFractionDigits: 1 })} MiB`;
}

/** `256 MiB (≈ 268 MB)`: with the decimal MB the New batch view gives a held list's size in. */
function limitText(bytes: number): string {
  return `${mibText(bytes)} (≈ ${(bytes / 1e6).toLocaleString('en', { maximumFractionDigits: 0 })} MB)`;
}

/**
 * What a web-mode call over the body limit says. `batches:create` carries the URL list, so it
 * names the list and the ways to start a longer one; any other channel gets the plain refusal.
 * Only a known channel name is repeated (anything else came from the client as is).
 */
export function invokeTooLargeMessage(channel: string | undefined, limitBytes: number): string {
  if (channel === 'batches:create') {
    return (
      `The URL list is too large for web mode, which sends it in one request of at most ${limitText(limitBytes)}. ` +
      'Split it into smaller lists and start a batch for each, or start it with `picscan batch <file>` or in the desktop app, ' +
      'which have no such limit.'
    );
  }
  const what = channel !== undefined && isChannel(channel) ? `The request to ${channel}` : 'The request';
  return `${what} is too large for web mode (limit ${mibText(limitBytes)}).`;
}

/**
 * The invoke route's own error path: a body over its limit (refused by its Content-Length before
 * it is read, or once the bytes read pass it) answers the Result envelope with `payload-too-large`
 * and a message about that channel, not the image API's. Anything else goes on to the server's
 * error handler (throwing from a route's handler passes the error to its parent).
 */
function invokeErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  if (err.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw err;
  const { channel } = req.params as { channel?: string };
  const error = new AppError('payload-too-large', invokeTooLargeMessage(channel, WEB_INVOKE_BODY_MAX_BYTES));
  void fail(reply.header('cache-control', 'no-store'), 413, error);
}

/** Prefix of the bridge's API: the paths below are under it. */
export const BRIDGE_API_PREFIX = '/api';

/** The bridge's API routes under BRIDGE_API_PREFIX and the one method each serves (no HEAD, whatever the host's setting). */
export const BRIDGE_API_ROUTES = {
  invoke: { path: '/invoke/:channel', method: 'POST' },
  events: { path: '/events', method: 'GET' },
  thumbnails: { path: '/thumbnails/:itemId', method: 'GET' },
  export: { path: '/export', method: 'GET' },
} as const;

/** A route path as a pattern of whole paths: a `:param` is one non-empty segment, as the router reads it. */
const routePattern = (path: string): RegExp => new RegExp(`^${path.replace(/:[^/]+/g, '[^/]+')}$`);
const API_ROUTE_PATTERNS = Object.values(BRIDGE_API_ROUTES).map((r) => ({
  pattern: routePattern(BRIDGE_API_PREFIX + r.path),
  allow: [r.method],
}));
/** Route options of the bridge's GET routes: HEAD is not served, so a 405's `Allow` is the same on every host. */
const GET_ONLY = { exposeHeadRoute: false } as const;

/** The methods a path under the bridge's API is served with (none: no route has its shape). */
function bridgeMethodsOf(path: string): readonly string[] {
  return API_ROUTE_PATTERNS.find((r) => r.pattern.test(path))?.allow ?? [];
}

/**
 * Under `/api`, a path the bridge has with another method is 405 with `Allow`, any other path 404,
 * both in the Result envelope the UI reads. Before, both were the image API's 404 ("The API has GET
 * and POST /ai/vision/analyze …"), which names nothing the UI calls.
 */
function apiNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = new URL(req.url, 'http://x').pathname;
  const allow = bridgeMethodsOf(path);
  reply.header('cache-control', 'no-store');
  if (allow.length)
    return fail(
      reply.header('allow', allow.join(', ')),
      405,
      new AppError('not-found', `${req.method} is not served on this path; use ${allow.join(' or ')}.`),
    );
  return fail(
    reply,
    404,
    new AppError(
      'not-found',
      `No web-mode route on this path: the UI calls ${Object.values(BRIDGE_API_ROUTES)
        .map((r) => `${r.method} ${BRIDGE_API_PREFIX}${r.path}`)
        .join(', ')}.`,
    ),
  );
}

/**
 * A body the content-type parser refuses (empty or broken JSON, another media type) is parsed
 * before routing, so its error reached the server's handler even on a path or method the bridge
 * does not serve: `PUT /api/export` with an empty JSON body got the image API's "The body is empty
 * although Content-Type is application/json." There, the path's 405 or 404 is the answer. Any
 * other error goes on to the server's handler (throwing passes it to the parent's).
 */
function notFoundFirst(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (req.is404) return apiNotFound(req, reply);
  throw err;
}

/**
 * Web mode: the built renderer at `/app/` and the typed API at `/api/*` (invoke, server-sent
 * events, thumbnails, export downloads). Register on the API server as extra routes; the token
 * and origin checks apply to these routes only (and to the API's not-found answers).
 */
export function bridgeRoutes(opts: BridgeOptions): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    const streams = new Set<ServerResponse>();
    // Event streams never go idle: end them so closing the server does not wait for the browser.
    app.addHook('preClose', async () => {
      for (const res of streams) res.end();
    });
    /** The session and origin checks and the response headers every bridge route has. */
    const guard = (scope: FastifyInstance, asJson: boolean): void => {
      scope.addHook('onRequest', async (req, reply) => {
        const why = refusal(req, opts.token);
        if (why) return refuse(reply, why, asJson);
        return undefined;
      });
      scope.addHook('onSend', async (_req, reply, payload) => {
        reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer');
        return payload;
      });
    };
    await app.register(async (scope) => {
      guard(scope, false);
      scope.get('/app', async (req, reply) => reply.redirect(`/app/${req.url.slice('/app'.length)}`));
      scope.get('/app/*', (req, reply) => serveApp(req, reply, opts));
    });
    await app.register(
      async (scope) => {
        guard(scope, true);
        scope.setNotFoundHandler(apiNotFound);
        scope.setErrorHandler(notFoundFirst);

        // The body is the call's JSON request, the whole URL list for `batches:create`.
        scope.post(
          BRIDGE_API_ROUTES.invoke.path,
          { bodyLimit: WEB_INVOKE_BODY_MAX_BYTES, errorHandler: invokeErrors },
          async (req, reply) => {
            const { channel } = req.params as { channel: string };
            if (!isChannel(channel)) return fail(reply, 404, new AppError('not-found', `Unknown channel: ${channel}`));
            // A desktop action (the native save dialog): web mode downloads `/api/export` instead.
            if (!isBackendChannel(channel))
              return reply.header('cache-control', 'no-store').send({
                ok: false,
                error: {
                  code: 'invalid-input',
                  message: `${channel} is a desktop action: web mode saves by the browser download of /api/export.`,
                },
              });
            const body = (req.body ?? {}) as { req?: unknown };
            return reply.header('cache-control', 'no-store').send(await dispatch(opts.handlers, channel, body.req, opts.logger));
          },
        );

        scope.get(BRIDGE_API_ROUTES.events.path, GET_ONLY, (req, reply) => streamEvents(req, reply, opts, streams));

        scope.get(BRIDGE_API_ROUTES.thumbnails.path, GET_ONLY, async (req, reply) => {
          const itemId = Number((req.params as { itemId: string }).itemId);
          const thumb = Number.isInteger(itemId) && itemId > 0 && opts.thumbnails ? await opts.thumbnails(itemId) : null;
          if (!thumb) return fail(reply, 404, new AppError('not-found', 'This item has no thumbnail.'));
          // Item ids are reused (deleting the newest batch frees its ids) and a reanalysis replaces
          // the thumbnail under the same URL, so the browser must revalidate every time: the ETag is
          // of the bytes themselves, and an unchanged thumbnail costs a 304 without a body.
          const etag = thumbnailEtag(thumb.bytes);
          reply.header('cache-control', THUMBNAIL_CACHE_CONTROL).header('etag', etag);
          if (ifNoneMatch(req.headers['if-none-match'], etag)) return reply.code(304).send();
          return reply.type(thumb.contentType).send(Buffer.from(thumb.bytes));
        });

        scope.get(BRIDGE_API_ROUTES.export.path, GET_ONLY, async (req, reply) => {
          const q = req.query as { format?: string; filter?: string };
          const format = q.format;
          if (format !== 'csv' && format !== 'json' && format !== 'ndjson')
            return fail(reply, 400, new AppError('invalid-input', 'format must be csv, json or ndjson.'));
          let filter: ResultFilter;
          try {
            filter = filterSchema.parse(JSON.parse(q.filter ?? '{}'));
          } catch (cause) {
            return fail(reply, 400, new AppError('invalid-input', 'The export filter is not valid.', { cause }));
          }
          if (!opts.exportResults) return fail(reply, 404, new AppError('not-found', 'Export is not available in this build.'));
          let source: ReturnType<ExportSource>;
          try {
            source = opts.exportResults(filter, format);
          } catch (err) {
            return fail(reply, wireMapping(toWireError(err).code).status, err);
          }
          const stream = source instanceof Readable ? source : Readable.from(source);
          const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
          return reply
            .type(EXPORT_TYPES[format])
            .header('content-disposition', `attachment; filename="picscan-export-${stamp}.${format}"`)
            .header('cache-control', 'no-store')
            .send(stream);
        });
      },
      { prefix: BRIDGE_API_PREFIX },
    );
  };
}

async function serveApp(req: FastifyRequest, reply: FastifyReply, opts: BridgeOptions): Promise<FastifyReply> {
  const path = new URL(req.url, 'http://x').pathname.slice('/app/'.length);
  if (!opts.rendererDir) {
    return reply
      .code(503)
      .type('text/plain; charset=utf-8')
      .send('The UI is not built: run `npm run build`, then start picscan serve again.');
  }
  const file = await readStatic(opts.rendererDir, path);
  if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
  if (file.type.startsWith('text/html')) {
    // Assets and images load without the token in their URL: the session cookie carries it.
    const cookie = `${sessionCookieName(req.socket.localPort ?? '')}=${requestToken(req) ?? ''}; Path=/; HttpOnly; SameSite=Strict`;
    reply.header('set-cookie', cookie).header('content-security-policy', CSP).header('cache-control', 'no-store');
  }
  return reply.type(file.type).send(file.body);
}

function streamEvents(req: FastifyRequest, reply: FastifyReply, opts: BridgeOptions, streams: Set<ServerResponse>): void {
  reply.hijack();
  const res = reply.raw;
  streams.add(res);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': connected\n\n');
  const unsubscribe = opts.events.subscribe((name, payload) => {
    res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
  });
  const heartbeat = setInterval(() => res.write(': ping\n\n'), opts.heartbeatMs ?? 15_000);
  req.raw.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    streams.delete(res);
  });
}
