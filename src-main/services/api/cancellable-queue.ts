import type PQueue from 'p-queue';
import { AppError } from '../../core';

/**
 * Adds `task` to `queue` so that a cancellation removes it only while it waits for a slot.
 * p-queue's own `signal` option also races a running task against the abort and frees its slot
 * at once, while the task goes on until its next cancellation check: a burst of clients that
 * disconnect would then run more analyses at once than the bound. Here a started task keeps its
 * slot until it has unwound; it sees the abort through the signal the caller passes it.
 */
export function addCancellable<T>(queue: PQueue, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return queue.add(task);
  const waiting = new AbortController();
  const stopWaiting = (): void => waiting.abort(new AppError('cancelled', 'The operation was cancelled.'));
  if (signal.aborted) stopWaiting();
  else signal.addEventListener('abort', stopWaiting, { once: true });
  const started = (): Promise<T> => {
    signal.removeEventListener('abort', stopWaiting);
    return task();
  };
  return queue.add(started, { signal: waiting.signal }).finally(() => signal.removeEventListener('abort', stopWaiting));
}
