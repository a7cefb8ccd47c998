import { toWireError } from '../../src-main/core';
import { createApiHandlers, type ApiDeps } from '../../src-main/http/bridge/handlers';
import type { EventMap, EventName, PicscanApi } from '../../src-main/shared';
import { fakeDeps } from '../main/ipc/fake-deps';

/**
 * A transport that calls the real handler table in-process, the way the preload and the web-mode
 * server do over their wires: parse, run, Result envelope. `emit` plays main-side events.
 */
export function inProcessTransport(deps: ApiDeps = fakeDeps()): PicscanApi & {
  emit<E extends EventName>(name: E, payload: EventMap[E]): void;
  calls: string[];
} {
  const handlers = createApiHandlers(deps);
  const listeners = new Map<string, Set<(p: never) => void>>();
  const calls: string[] = [];
  return {
    calls,
    async invoke(channel, req) {
      calls.push(channel);
      try {
        const entry = handlers[channel];
        return { ok: true, value: await entry.run(entry.parse(req)) };
      } catch (err) {
        return { ok: false, error: toWireError(err) };
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (p: never) => void);
      return () => void set.delete(listener as (p: never) => void);
    },
    emit(name, payload) {
      for (const l of listeners.get(name) ?? []) l(payload as never);
    },
  };
}

export { fakeDeps };
