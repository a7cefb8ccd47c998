import { codeFromAzure, EVENTS, type EventMap, type EventName, type IpcResult, type PicscanApi } from '../../src-main/shared';

const TOKEN_KEY = 'picscan-session-token';

/** Shown when the server stops accepting this page's live updates. */
export const SESSION_ENDED =
  'Live updates stopped: picscan no longer accepts this page (was `picscan serve` restarted?). Open the URL it printed when it started.';

/** The session token of web mode: from the page URL (`?token=`), kept for reloads of this tab. */
export function sessionToken(loc: Location = window.location, store: Storage = window.sessionStorage): string | null {
  const fromUrl = new URLSearchParams(loc.search).get('token');
  if (fromUrl) {
    store.setItem(TOKEN_KEY, fromUrl);
    return fromUrl;
  }
  return store.getItem(TOKEN_KEY);
}

/** An object, read loosely (a reply body is whatever the server or a proxy in between sent). */
type Loose = Record<string, unknown> | undefined;
const loose = (v: unknown): Loose => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined);

/**
 * The Result of one answer, whatever its status. The bridge answers the envelope even for its
 * refusals (401, 403, 404, 413); the API server's error handler, which still answers some failures
 * of the invoke route (a body that is not JSON), sends `{ error: { code, message } }` instead,
 * read here as a failure with its message and the stable code behind its Azure code. Anything
 * else (no JSON, e.g. a proxy's page) says the status it came with.
 */
async function resultOf<T>(res: Response): Promise<IpcResult<T>> {
  let body: Loose;
  try {
    body = loose(await res.json());
  } catch {
    body = undefined;
  }
  const error = loose(body?.error);
  if (body?.ok === true) return body as IpcResult<T>;
  if (body?.ok === false && typeof error?.message === 'string') return body as IpcResult<T>;
  if (!res.ok && typeof error?.message === 'string') {
    const code = codeFromAzure(typeof error.code === 'string' ? error.code : '', res.status);
    return { ok: false, error: { code, message: error.message } };
  }
  if (res.status === 413)
    return { ok: false, error: { code: 'payload-too-large', message: 'The request was too large for picscan (HTTP 413).' } };
  return { ok: false, error: { code: 'internal', message: `picscan answered HTTP ${res.status} without a result.` } };
}

/**
 * The contract over HTTP: `POST /api/invoke/:channel` answers the Result envelope, and one
 * `EventSource` on `/api/events` carries every push event.
 */
export function createWebTransport(token: string, base = ''): PicscanApi {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let source: EventSource | null = null;

  function emit(name: EventName, payload: unknown): void {
    for (const l of listeners.get(name) ?? []) l(payload as never);
  }

  function connect(): void {
    if (source) return;
    const stream = new EventSource(`${base}/api/events?token=${encodeURIComponent(token)}`);
    source = stream;
    for (const name of Object.keys(EVENTS) as EventName[]) {
      stream.addEventListener(name, (e) => emit(name, JSON.parse((e as MessageEvent<string>).data)));
    }
    // A dropped stream is retried by the EventSource itself; it gives up only when the server
    // refuses it (a restarted `picscan serve` has a new session token). Say so instead of
    // leaving progress frozen.
    stream.addEventListener('error', () => {
      if (stream.readyState !== EventSource.CLOSED) return;
      const notice: EventMap['app:notice'] = { level: 'error', message: SESSION_ENDED };
      emit('app:notice', notice);
    });
  }

  return {
    async invoke(channel, req) {
      let res: Response;
      try {
        res = await fetch(`${base}/api/invoke/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-picscan-token': token },
          body: JSON.stringify({ req }),
        });
      } catch {
        return { ok: false, error: { code: 'internal', message: 'picscan is not reachable: is `picscan serve` still running?' } };
      }
      return resultOf(res);
    },
    on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void) {
      connect();
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => void set.delete(listener as (payload: never) => void);
    },
  };
}
