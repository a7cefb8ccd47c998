import type { WireError } from './errors';

/** Identity and locations of the running app, for the About/Settings screens. */
export interface AppInfo {
  name: 'picscan';
  version: string;
  /** OS app-data folder holding the database and settings. */
  dataDir: string;
  dbPath: string;
}

/**
 * The whole request/response surface between the UI and the main side. Main (ipc/ and http/),
 * the preload and the renderer all share it. Channel names are `domain:kebab-action`.
 */
export interface InvokeMap {
  'app:info': { req: void; res: AppInfo };
}

/** Push events from the main side to the UI. */
export interface EventMap {
  'app:notice': { level: 'info' | 'warn' | 'error'; message: string };
}

export type Channel = keyof InvokeMap;
export type EventName = keyof EventMap;
export type Req<C extends Channel> = InvokeMap[C]['req'];
export type Res<C extends Channel> = InvokeMap[C]['res'];
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** Runtime allow-list of invoke channels; missing or extra keys fail to compile. */
export const CHANNELS = { 'app:info': true } as const satisfies Record<Channel, true>;

/** Runtime allow-list of event names. */
export const EVENTS = { 'app:notice': true } as const satisfies Record<EventName, true>;

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(CHANNELS, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(EVENTS, name);
}

/** The API the preload exposes on `window.api` (and the web-mode client mirrors). */
export interface PicscanApi {
  invoke<C extends Channel>(channel: C, req: Req<C>): Promise<IpcResult<Res<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}
