import { AppError } from '../../core';

/** A checked Redis address: the URL to connect with, and the same without its password. */
export interface RedisAddress {
  /** The full URL, password included: only ever given to the Redis client. */
  url: string;
  /** For logs, the database and messages: the password replaced by `***`. */
  redacted: string;
  /** Without any credentials: what a batch stores, so its password never lands on disk. */
  stored: string;
  tls: boolean;
  /** The database number of the URL's path (0 when it names none). */
  db: number;
}

/**
 * Checks a `redis://` or `rediss://` (TLS) URL, with optional user, password and database number
 * (`redis://:secret@host:6379/2`). Throws `invalid-parameter` with a message that never shows
 * the password.
 */
export function parseRedisUrl(raw: string): RedisAddress {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new AppError('invalid-parameter', 'The Redis URL is not a valid URL; use redis://host:6379 or rediss://host:6380 (TLS).');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new AppError('invalid-parameter', `The Redis URL must start with redis:// or rediss:// (TLS), not ${u.protocol}//.`);
  }
  if (!u.hostname) throw new AppError('invalid-parameter', 'The Redis URL has no host name.');
  const db = u.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db)) throw new AppError('invalid-parameter', 'The Redis URL path must be a database number (0–15).');
  const redacted = new URL(u.href);
  if (redacted.password) redacted.password = '***';
  const stored = new URL(u.href);
  stored.username = '';
  stored.password = '';
  return { url: u.href, redacted: redacted.href, stored: stored.href, tls: u.protocol === 'rediss:', db: Number(db || '0') };
}

/**
 * The URL to run a stored distributed batch with: the one given now (it may carry the password),
 * or the stored one when none is given. Given one must name the same server as the stored one.
 */
export function redisForRun(stored: string, given: string | undefined): RedisAddress {
  const saved = parseRedisUrl(stored);
  if (!given) return saved;
  const now = parseRedisUrl(given);
  if (now.stored !== saved.stored) {
    throw new AppError('invalid-parameter', `This batch runs on ${saved.stored}; --redis names ${now.stored}.`);
  }
  return now;
}
