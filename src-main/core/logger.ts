import pino, { type DestinationStream } from 'pino';

/** Minimal structured logger; adapters decide where lines go. Secrets are redacted (`redact`). */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** What replaces a secret in a log line. */
export const REDACTED = '[redacted]';

/** Field names whose values are secrets wherever they appear (any case, `-`/`_` ignored). */
const SECRET_FIELDS = new Set(['key', 'apikey', 'remotekey', 'token', 'password', 'secret', 'authorization', 'cookie', 'xapikey']);
const isSecretField = (name: string): boolean => SECRET_FIELDS.has(name.toLowerCase().replace(/[-_]/g, ''));

// A URL's password (`redis://user:pw@host`, `redis://:pw@host`) or bare userinfo token (`rediss://token@host`).
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]*)(?::([^\s/@]*))?@/gi;
// A query string (`?key=…&…`) in a URL or a path: API keys travel there (GET /ai/vision/analyze?key=).
const QUERY = /\?[^\s#"'<>]*=[^\s#"'<>]*/g;

/** A text with URL passwords and query strings replaced by `[redacted]`. */
export function redactText(text: string): string {
  return text
    .replace(URL_USERINFO, (_m, scheme: string, user: string, pw: string | undefined) =>
      pw === undefined ? `${scheme}${REDACTED}@` : `${scheme}${user ? `${user}:` : ':'}${REDACTED}@`,
    )
    .replace(QUERY, `?${REDACTED}`);
}

/** `value` with secret fields and secrets inside strings redacted, at any depth (cycles cut). */
export function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, seen));
  if (value instanceof Error)
    return { name: value.name, message: redactText(value.message), stack: value.stack && redactText(value.stack) };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretField(k) ? REDACTED : redact(v, seen)]));
}

/** Options of `createLogger`. */
export interface LoggerOptions {
  /** Where JSON lines go; default stderr, so stdout stays clean for command output (JSON, CSV). */
  destination?: DestinationStream;
  /** Lowest level written; default `debug` with PICSCAN_DEBUG set, else `info`. */
  level?: 'debug' | 'info' | 'warn' | 'error';
}

/**
 * A pino logger behind the `Logger` interface: one JSON line per call (`level`, `time`, `msg`,
 * the fields), with API keys, tokens, passwords (also inside URLs) and query strings redacted
 * from the message and every field.
 */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const level = opts.level ?? (process.env.PICSCAN_DEBUG ? 'debug' : 'info');
  const destination = opts.destination ?? pino.destination({ fd: 2, sync: true });
  const log = pino({ level, base: undefined, formatters: { level: (label) => ({ level: label }) } }, destination);
  const at =
    (method: 'debug' | 'info' | 'warn' | 'error') =>
    (msg: string, fields?: Record<string, unknown>): void => {
      if (!log.isLevelEnabled(method)) return;
      if (fields) log[method](redact(fields) as Record<string, unknown>, redactText(msg));
      else log[method](redactText(msg));
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The hosts' logger: JSON lines on stderr. */
export const consoleLogger: Logger = createLogger();

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
