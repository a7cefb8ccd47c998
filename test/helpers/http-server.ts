/**
 * A loopback HTTP server for network tests (intake, batches, API clients): serves fixed bytes or
 * files with a chosen status, headers, delays, trickled or chunked bodies, redirects and connection
 * resets. Listens on 127.0.0.1 on a free port; nothing leaves the machine.
 *
 * @example
 * const server = await startFixtureServer();
 * server.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
 * server.route('/flaky.jpg', [{ status: 500 }, { file: fixture('cat_chelsea.jpg') }]); // 500, then the file
 * server.route('/slow.jpg', { body: bytes, chunkSize: 100, chunkDelayMs: 50 });           // trickles
 * await fetch(server.url('/cat.jpg'));
 * await server.close();
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { readFile } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';

/** A declarative response. */
export interface RouteResponse {
  /** HTTP status; default 200 (302 when `redirectTo` is set). */
  status?: number;
  /** Extra or overriding headers. A `content-length` here is sent as is (it may lie). */
  headers?: Record<string, string | number>;
  /** Body bytes or text; default empty. */
  body?: Uint8Array | string;
  /** Absolute path of a file to serve as the body (read per request). */
  file?: string;
  /** Wait before sending the status line, in ms. */
  delayMs?: number;
  /** Send the body in pieces of this many bytes… */
  chunkSize?: number;
  /** …waiting this long between pieces, in ms (a trickling server). */
  chunkDelayMs?: number;
  /** Omit Content-Length, so the body goes out with chunked transfer encoding. */
  chunked?: boolean;
  /** Redirect here (sets Location; status 302 unless `status` says otherwise). */
  redirectTo?: string;
  /** Destroy the socket without answering (the client sees a connection reset). */
  reset?: boolean;
}

/** Full control: write the response yourself. `hit` counts requests to this path, from 1. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, hit: number) => void | Promise<void>;

/** A response, a sequence of responses (one per hit; the last repeats), or a handler. */
export type Route = RouteResponse | RouteResponse[] | RouteHandler;

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/** A running fixture server. */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>` (`https://` with `tls`) */
  readonly origin: string;
  readonly port: number;
  /** Absolute URL for a path on this server. */
  url(path: string): string;
  /** Sets (or replaces) what a path answers; the path is matched without its query string. */
  route(path: string, route: Route): void;
  /** Requests received so far for a path. */
  hits(path: string): number;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Stops listening and destroys open connections (trickling responses included). */
  close(): Promise<void>;
}

/** Server options. */
export interface FixtureServerOptions {
  /** Serve HTTPS with this PEM key and certificate (e.g. from the `selfsigned` package). */
  tls?: { key: string; cert: string };
}

/** Starts a server on 127.0.0.1; unrouted paths answer 404. */
export async function startFixtureServer(opts: FixtureServerOptions = {}): Promise<FixtureServer> {
  const routes = new Map<string, Route>();
  const hitCounts = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const listener: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://fixture').pathname;
    const hit = (hitCounts.get(path) ?? 0) + 1;
    hitCounts.set(path, hit);
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const route = routes.get(path) ?? { status: 404, body: 'not found', headers: { 'content-type': 'text/plain' } };
    const run = typeof route === 'function' ? route(req, res, hit) : respond(res, pick(route, hit));
    Promise.resolve(run).catch((err: unknown) => {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  };
  const server: Server = opts.tls ? createTlsServer(opts.tls, listener) : createServer(listener);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;

  return {
    origin,
    port,
    url: (path) => new URL(path, origin).href,
    route: (path, route) => void routes.set(path, route),
    hits: (path) => hitCounts.get(path) ?? 0,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function pick(route: RouteResponse | RouteResponse[], hit: number): RouteResponse {
  if (!Array.isArray(route)) return route;
  return route[Math.min(hit, route.length) - 1] ?? {};
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function respond(res: ServerResponse, spec: RouteResponse): Promise<void> {
  if (spec.delayMs) await wait(spec.delayMs);
  if (spec.reset) {
    res.socket?.destroy();
    return;
  }
  const body = spec.file
    ? await readFile(spec.file)
    : typeof spec.body === 'string'
      ? Buffer.from(spec.body)
      : Buffer.from(spec.body ?? new Uint8Array());
  const headers: Record<string, string | number> = {};
  if (!spec.chunked) headers['content-length'] = body.length;
  if (spec.redirectTo) headers.location = spec.redirectTo;
  Object.assign(headers, spec.headers);
  res.writeHead(spec.status ?? (spec.redirectTo ? 302 : 200), headers);
  if (!spec.chunkSize) {
    res.end(body);
    return;
  }
  for (let offset = 0; offset < body.length; offset += spec.chunkSize) {
    if (res.destroyed) return; // the client gave up
    res.write(body.subarray(offset, offset + spec.chunkSize));
    if (spec.chunkDelayMs) await wait(spec.chunkDelayMs);
  }
  if (!res.destroyed) res.end();
}
