import type { Channel, EventMap, EventName, ExportFormat, PicscanApi, Req, Res, ResultFilter } from '../../src-main/shared';
import type { ErrorCode } from '../../src-main/shared/errors';
import { createWebTransport, sessionToken } from './web-transport';

/** An error returned by the main side, with its stable code. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

declare global {
  interface Window {
    api?: PicscanApi;
  }
}

let webTransport: PicscanApi | undefined;

/** The transport of this window: the Electron preload's `window.api`, else web mode over HTTP. */
export function defaultTransport(): PicscanApi | undefined {
  if (typeof window === 'undefined') return undefined;
  if (window.api) return window.api;
  if (!webTransport) {
    const token = sessionToken();
    if (token) webTransport = createWebTransport(token);
  }
  return webTransport;
}

/** Replaces the transport (tests, or a host that injects its own). */
export function setTransport(transport: PicscanApi | undefined): void {
  webTransport = transport;
}

/** True in web mode (a browser tab served by `picscan serve`). */
export function isWebMode(): boolean {
  return typeof window !== 'undefined' && !window.api;
}

/** Calls a channel over whichever transport is present and unwraps the Result envelope. */
export async function invoke<C extends Channel>(
  channel: C,
  req: Req<C>,
  transport: PicscanApi | undefined = defaultTransport(),
): Promise<Res<C>> {
  if (!transport) throw new ApiError('internal', 'No connection to picscan (neither the desktop bridge nor web mode is available).');
  const result = await transport.invoke(channel, req);
  if (!result.ok) throw new ApiError(result.error.code, result.error.message);
  return result.value;
}

/** Subscribes to a push event; returns the unsubscribe function (a no-op without a transport). */
export function onEvent<E extends EventName>(
  event: E,
  listener: (payload: EventMap[E]) => void,
  transport = defaultTransport(),
): () => void {
  return transport ? transport.on(event, listener) : () => {};
}

/** Where an item's thumbnail is served: the app protocol (desktop) or the bridge (web mode, cookie-authorised). */
export function thumbnailUrl(itemId: number): string {
  return isWebMode() ? `/api/thumbnails/${itemId}` : `picscan-thumb://item/${itemId}`;
}

/**
 * Exports the filter: a save dialog in the desktop app, a download in web mode.
 * Resolves to what was saved (desktop), `download` (web) or null when the user cancelled.
 */
export async function exportResults(filter: ResultFilter, format: ExportFormat): Promise<string | null> {
  if (!isWebMode()) {
    const saved = await invoke('export:save', { filter, format });
    return saved ? saved.path : null;
  }
  const url = `/api/export?format=${format}&filter=${encodeURIComponent(JSON.stringify(filter))}`;
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  document.body.append(a);
  a.click();
  a.remove();
  return 'download';
}
