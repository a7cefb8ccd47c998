import { EVENTS, type EventMap, type EventName, type PicscanApi } from '../../src-main/shared';

const TOKEN_KEY = 'picscan-session-token';

/** The session token of web mode: from the page URL (`?token=`), kept for reloads of this tab. */
export function sessionToken(loc: Location = window.location, store: Storage = window.sessionStorage): string | null {
  const fromUrl = new URLSearchParams(loc.search).get('token');
  if (fromUrl) {
    store.setItem(TOKEN_KEY, fromUrl);
    return fromUrl;
  }
  return store.getItem(TOKEN_KEY);
}

/**
 * The contract over HTTP: `POST /api/invoke/:channel` answers the Result envelope, and one
 * `EventSource` on `/api/events` carries every push event.
 */
export function createWebTransport(token: string, base = ''): PicscanApi {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let source: EventSource | null = null;

  function connect(): void {
    if (source) return;
    source = new EventSource(`${base}/api/events?token=${encodeURIComponent(token)}`);
    for (const name of Object.keys(EVENTS) as EventName[]) {
      source.addEventListener(name, (e) => {
        const payload = JSON.parse((e as MessageEvent<string>).data) as never;
        for (const l of listeners.get(name) ?? []) l(payload);
      });
    }
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
      try {
        return await res.json();
      } catch {
        return { ok: false, error: { code: 'internal', message: `picscan answered HTTP ${res.status} without a result.` } };
      }
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
