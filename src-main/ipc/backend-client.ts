import { isEventName, type EventName, type IpcResult } from '../shared';
import type { FromBackend, Invoker, PortLike, ToBackend } from './protocol';

type WithoutSeq<T> = T extends unknown ? Omit<T, 'seq'> : never;

export interface BackendClient {
  invoke: Invoker;
  /** `export:save` once the user picked `path`. */
  exportFile(req: unknown, path: string): Promise<IpcResult<unknown>>;
  /** Thumbnail of an item (value null when it has none). */
  thumbnail(itemId: number): Promise<IpcResult<unknown>>;
  onEvent(listener: (name: EventName, payload: unknown) => void): () => void;
  /** Fails every pending call (the backend process exited). */
  fail(message: string): void;
}

/** Main-process side: numbered requests to the backend process, answers matched by `seq`. */
export function connectBackend(port: PortLike<FromBackend, ToBackend>): BackendClient {
  let seq = 0;
  const pending = new Map<number, (r: IpcResult<unknown>) => void>();
  const listeners = new Set<(name: EventName, payload: unknown) => void>();
  port.onMessage((msg) => {
    if (msg.type === 'result') {
      pending.get(msg.seq)?.(msg.result);
      pending.delete(msg.seq);
    } else if (msg.type === 'event' && isEventName(msg.name)) {
      for (const l of listeners) l(msg.name, msg.payload);
    }
  });
  const send = (msg: WithoutSeq<ToBackend>): Promise<IpcResult<unknown>> =>
    new Promise((resolve) => {
      seq += 1;
      pending.set(seq, resolve);
      port.postMessage({ ...msg, seq } as ToBackend);
    });
  return {
    invoke: (channel, req) => send({ type: 'invoke', channel, req }),
    exportFile: (req, path) => send({ type: 'export-file', req, path }),
    thumbnail: (itemId) => send({ type: 'thumbnail', itemId }),
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    fail(message) {
      for (const resolve of pending.values()) resolve({ ok: false, error: { code: 'internal', message } });
      pending.clear();
    },
  };
}
