import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { BugError } from '../core';

/** True for host names that only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The base URL of a listening server, e.g. `https://127.0.0.1:8443` (the real port when 0 was asked). */
export function serverUrl(app: FastifyInstance, tls: boolean): string {
  const addr = app.server.address() as AddressInfo | string | null;
  if (!addr || typeof addr === 'string') throw new BugError('serverUrl: the server is not listening on TCP');
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `${tls ? 'https' : 'http'}://${host}:${addr.port}`;
}
