import type { EventMap, EventName } from '../../shared';

/** A listener for every event of the contract. */
export type AnyEventListener = <E extends EventName>(name: E, payload: EventMap[E]) => void;

/** A typed in-process event bus: services publish, bridges (IPC, SSE) forward to the UI. */
export interface EventHub {
  emit<E extends EventName>(name: E, payload: EventMap[E]): void;
  subscribe(listener: AnyEventListener): () => void;
}

export function createEventHub(): EventHub {
  const listeners = new Set<AnyEventListener>();
  return {
    emit(name, payload) {
      for (const listener of [...listeners]) {
        try {
          listener(name, payload);
        } catch {
          // A failing subscriber (a closed socket, a destroyed window) must not stop the others.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
