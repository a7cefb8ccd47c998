import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A fresh per-start session token (URL-safe, 256 bits). */
export function createSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Name of the session cookie; per port, because cookies are shared by every port of a host. */
export function sessionCookieName(port: number | string): string {
  return `picscan_session_${port}`;
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** The token a request carries: header, `token` query parameter, or the session cookie. */
export function requestToken(req: FastifyRequest): string | undefined {
  const header = req.headers['x-picscan-token'];
  if (typeof header === 'string') return header;
  const query = (req.query as Record<string, unknown> | undefined)?.token;
  if (typeof query === 'string') return query;
  return cookie(req, sessionCookieName(req.socket.localPort ?? ''));
}

/**
 * Why a request must be refused, or null. Checked on every bridge request:
 * - the Host is an IP literal or `localhost` (a DNS name pointing here is a rebinding attempt);
 * - a browser's Origin / Sec-Fetch-Site says the request comes from this origin (or a navigation);
 * - the session token matches.
 */
export function refusal(req: FastifyRequest, token: string): { status: 401 | 403; message: string } | null {
  const host = req.headers.host ?? '';
  const hostname = host.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
  if (hostname !== 'localhost' && isIP(hostname) === 0)
    return { status: 403, message: 'This address is not accepted; use the URL picscan printed.' };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `${req.protocol}://${host}`)
    return { status: 403, message: 'Requests from other sites are refused.' };
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return { status: 403, message: 'Requests from other sites are refused.' };
  if (!sameToken(requestToken(req), token))
    return { status: 401, message: 'Missing or wrong session token: open the URL picscan printed when it started.' };
  return null;
}

/** Sends a refusal in the Result envelope (API) or as plain text (pages). */
export function refuse(reply: FastifyReply, why: { status: 401 | 403; message: string }, asJson: boolean): FastifyReply {
  reply.code(why.status).header('cache-control', 'no-store');
  if (asJson) return reply.send({ ok: false, error: { code: 'unauthorized', message: why.message } });
  return reply.type('text/plain; charset=utf-8').send(why.message);
}
