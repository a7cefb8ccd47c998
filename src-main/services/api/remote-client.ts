import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { AppError, REDACTED, redactText, sleep } from '../../core';
import { codeFromAzure, codeFromKairos } from '../../shared/api-errors';
import { remoteAnalyzeDataSchema, remoteDetectErrorsSchema, remoteDetectImagesSchema } from '../../shared/contract';
import type { ErrorCode } from '../../shared/errors';
import type { AnalyzeData, AnalyzeEnvelope, DetectErrors, DetectResponse, DetectSuccess } from '../../shared/spec';
import type { ImageOperations } from './operations';
import type { AnalyzeRequest, DetectRequest } from './params';
import { backoffMs, isRetryableStatus, isTransientNetworkError, parseRetryAfterMs } from './remote-retry';

/** Where and how to call a remote service that speaks this spec (the cloud service, or another picscan). */
export interface RemoteClientOptions {
  /** e.g. `https://api.example.com` (paths `/ai/vision/analyze`, `/ai/faces/detect` are appended). */
  baseUrl: string;
  key: string;
  /** POST (JSON body, key in header) or GET (query string); default POST. */
  method?: 'GET' | 'POST';
  /** Retries after 429, 5xx or a dropped connection; default 4. */
  maxRetries?: number;
  /** First backoff; doubles per retry with jitter. Default 500. */
  retryBaseDelayMs?: number;
  /** Cap of one wait, also for Retry-After: a longer Retry-After fails the call. Default 60 000. */
  maxRetryDelayMs?: number;
  /** Per-attempt limit for the response head and body. Default 120 000. */
  timeoutMs?: number;
  /** Extra trusted CA (PEM), e.g. the self-signed certificate of a picscan server. */
  ca?: string;
}

/** A remote client: the same `ImageOperations` as the local models, plus `close()`. */
export interface RemoteClient extends ImageOperations {
  close(): Promise<void>;
}

/**
 * Largest reply read from the service. An analyze envelope or a detect body of 50 faces is a few
 * KB; a longer body is not the API's, and reading it whole could exhaust memory.
 */
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON; undefined when the body was empty or not JSON. */
  body: unknown;
  text: string;
}

/** Statuses that say what went wrong without a body (the key, the credit, the rate, the size). */
const SELF_EXPLAINING = new Set([401, 402, 413, 429]);

/**
 * Client for the cloud service's two operations. Returns the same typed results as the local
 * services: analyze → `AnalyzeData` (errors thrown as `AppError`s mapped back from the Azure code),
 * detect → `{ images }` or the Kairos `{ Errors }` body. Retries 429/5xx and dropped connections
 * with exponential backoff, honouring `Retry-After`.
 */
export function createRemoteClient(opts: RemoteClientOptions): RemoteClient {
  const method = opts.method ?? 'POST';
  const maxRetries = opts.maxRetries ?? 4;
  const base = opts.retryBaseDelayMs ?? 500;
  const cap = opts.maxRetryDelayMs ?? 60_000;
  const timeout = opts.timeoutMs ?? 120_000;
  const dispatcher: Dispatcher = new Agent({ headersTimeout: timeout, bodyTimeout: timeout, connect: opts.ca ? { ca: opts.ca } : {} });
  const root = opts.baseUrl.replace(/\/+$/, '');
  // The base URL as messages name it: a password in it (https://user:pw@host) is masked.
  const shownRoot = redactText(root);

  async function once(path: string, params: Record<string, string | number>, signal?: AbortSignal): Promise<Reply> {
    const url = new URL(root + path);
    let body: string | undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (method === 'GET') {
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
      url.searchParams.set('key', opts.key);
    } else {
      headers['content-type'] = 'application/json';
      headers.key = opts.key;
      body = JSON.stringify(params);
    }
    const { res, text } = await withinTimeout(signal, async (attempt) => {
      const res = await request(url, { method, headers, body, dispatcher, signal: attempt });
      return { res, text: await readReply(res.body) };
    });
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body: parsed, text };
  }

  async function send(path: string, params: Record<string, string | number>, signal?: AbortSignal): Promise<Reply> {
    for (let retry = 0; ; retry++) {
      let reply: Reply | undefined;
      try {
        reply = await once(path, params, signal);
      } catch (err) {
        if (signal?.aborted) throw new AppError('cancelled', 'The operation was cancelled.', { cause: err });
        if (err instanceof AppError) throw err;
        if (!isTransientNetworkError(err) || retry >= maxRetries) {
          // `unreachable`: the service itself, not this image; a batch pauses on it (jobs/retry.ts haltsRun).
          throw new AppError('remote-failed', `The remote service at ${shownRoot} could not be reached: ${(err as Error).message}`, {
            cause: err,
            details: { unreachable: true },
          });
        }
      }
      if (reply && !isRetryableStatus(reply.status)) return reply;
      if (reply && retry >= maxRetries) return reply;
      const hinted = reply ? parseRetryAfterMs(reply.headers['retry-after']) : undefined;
      if (hinted !== undefined && hinted > cap && reply) return reply;
      await sleep(hinted ?? backoffMs(retry, base, cap), signal);
    }
  }

  /**
   * Runs one attempt under `timeoutMs` for the whole exchange, head and body. undici's own
   * timeouts measure idle time, which a service sending a byte now and then never reaches. The
   * timeout is thrown as ETIMEDOUT (retried like a dropped connection); the caller's abort as is.
   */
  async function withinTimeout<T>(signal: AbortSignal | undefined, run: (attempt: AbortSignal) => Promise<T>): Promise<T> {
    const attempt = new AbortController();
    const timer = setTimeout(() => attempt.abort(), timeout);
    const cancel = (): void => attempt.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await run(attempt.signal);
    } catch (err) {
      if (!attempt.signal.aborted || signal?.aborted) throw err;
      throw Object.assign(new Error(`no complete reply within ${timeout / 1000} s`, { cause: err }), { code: 'ETIMEDOUT' });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  /**
   * The error of a reply without the API's error body. A 5xx or a self-explaining status is
   * named as such; anything else (a redirect, an HTML page, broken JSON, a 404) is not the API
   * answering at all, which a wrong base URL or a proxy in the way causes, not the parameters.
   */
  function unexpected(reply: Reply, code: ErrorCode): AppError {
    const details = { status: reply.status };
    if (reply.status >= 500 || SELF_EXPLAINING.has(reply.status))
      return new AppError(code, `The remote service answered HTTP ${reply.status}.`, { details });
    const header = reply.headers['content-type'];
    const type = (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim() || 'a body';
    const what =
      reply.status >= 300 && reply.status < 400
        ? ' (a redirect, which is not followed)'
        : reply.text.trim() === ''
          ? ' with an empty body'
          : reply.body === undefined
            ? ` with ${type} that is not valid JSON`
            : ' without a result of the API';
    return new AppError('remote-failed', `The remote service at ${shownRoot} answered HTTP ${reply.status}${what}: check the base URL.`, {
      details,
    });
  }

  /** Checks a result against what storage and views read; a reply that breaks it is refused, naming the first problem. */
  function readable<T>(schema: z.ZodType, value: T, what: string, reply: Reply): T {
    const parsed = schema.safeParse(value);
    if (parsed.success) return value;
    const issue = parsed.error.issues[0];
    const where = [what, ...(issue?.path.map(String) ?? [])].join('.');
    throw new AppError(
      'remote-failed',
      `The remote service at ${shownRoot} answered HTTP ${reply.status} with a result that does not follow the API (${where}: ${issue?.message ?? 'invalid'}).`,
      { details: { status: reply.status } },
    );
  }

  /**
   * A message of the service with the key masked: some services quote the key they refuse, and
   * these messages are shown, logged and stored with the item.
   */
  const scrub = (message: string): string => (opts.key ? message.split(opts.key).join(REDACTED) : message);

  /** The reply's text; refused (and the connection dropped) once more than MAX_REPLY_BYTES arrived. */
  async function readReply(body: Dispatcher.ResponseData['body']): Promise<string> {
    const tooLarge = (): AppError => {
      body.on('error', () => {});
      body.destroy();
      return new AppError(
        'remote-failed',
        `The remote service at ${shownRoot} sent a reply larger than ${MAX_REPLY_BYTES / (1024 * 1024)} MB, which is not the API's: check the base URL.`,
      );
    };
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > MAX_REPLY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, received).toString('utf8');
  }

  return {
    async analyze(req: AnalyzeRequest, signal?: AbortSignal): Promise<AnalyzeData> {
      const params: Record<string, string> = { image: req.image };
      if (req.features) params.features = req.features.join(',');
      if (req.details) params.details = req.details.join(',');
      const reply = await send('/ai/vision/analyze', params, signal);
      const env = reply.body as Partial<AnalyzeEnvelope> | undefined;
      if (reply.status === 200 && env?.status === true && env.data) return readable(remoteAnalyzeDataSchema, env.data, 'data', reply);
      const code = env?.error?.code;
      if (!code) throw unexpected(reply, codeFromAzure('', reply.status));
      const message = env.error?.message;
      throw new AppError(
        codeFromAzure(code, reply.status),
        typeof message === 'string' && message !== '' ? scrub(message) : `The remote service answered HTTP ${reply.status}.`,
        {
          details: { status: reply.status, remoteCode: code },
        },
      );
    },

    async detect(req: DetectRequest, signal?: AbortSignal): Promise<DetectResponse> {
      const params = { image: req.image, minHeadScale: req.minHeadScale, selector: req.selector.join(',') };
      const reply = await send('/ai/faces/detect', params, signal);
      const body = reply.body as { images?: DetectSuccess['images']; Errors?: DetectErrors['Errors'] } | undefined;
      // Drop transport extras such as trace_id so results equal the local ones.
      if (reply.status === 200 && body?.images) return { images: readable(remoteDetectImagesSchema, body.images, 'images', reply) };
      const errors =
        body?.Errors === undefined
          ? undefined
          : readable(remoteDetectErrorsSchema, body.Errors, 'Errors', reply).map((e) => ({ ...e, Message: scrub(e.Message) }));
      if (reply.status === 200 && errors) return { Errors: errors };
      const first = errors?.[0];
      const code: ErrorCode =
        reply.status === 401
          ? 'unauthorized'
          : reply.status === 402
            ? 'insufficient-credit'
            : reply.status === 429
              ? 'rate-limited'
              : first
                ? codeFromKairos(first.ErrCode)
                : 'remote-failed';
      if (!first) throw unexpected(reply, code);
      throw new AppError(code, first.Message, { details: { status: reply.status } });
    },

    close: () => dispatcher.close(),
  };
}
