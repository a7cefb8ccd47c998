import type { Channel, EventName, IpcResult } from '../shared';

/** Messages between the Electron main process and the backend utility process. */
export type ToBackend =
  | { type: 'invoke'; seq: number; channel: Channel; req: unknown }
  /** `export:save` after the main process asked where to save: write the export to `path`. */
  | { type: 'export-file'; seq: number; req: unknown; path: string }
  /** Thumbnail bytes of an item for the `picscan-thumb:` protocol; null when it has none. */
  | { type: 'thumbnail'; seq: number; itemId: number };
export type FromBackend =
  { type: 'result'; seq: number; result: IpcResult<unknown> } | { type: 'event'; name: EventName; payload: unknown };

/** The minimal message port both sides need (Electron UtilityProcess, parentPort, worker_threads). */
export interface PortLike<In, Out> {
  postMessage(message: Out): void;
  onMessage(listener: (message: In) => void): void;
}

/** Invokes a channel with untrusted input and resolves to its Result envelope. */
export type Invoker = (channel: Channel, raw: unknown) => Promise<IpcResult<unknown>>;
