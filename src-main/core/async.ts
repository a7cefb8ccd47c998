import { AppError } from './errors';

/** Resolves after `ms` milliseconds, or rejects with `cancelled` when the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AppError('cancelled', 'The operation was cancelled.'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AppError('cancelled', 'The operation was cancelled.'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Throws `cancelled` if the signal has aborted. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AppError('cancelled', 'The operation was cancelled.');
}

/**
 * Resolves after the event loop has polled for I/O once more. Model runs block the thread for
 * long stretches, so a client's disconnect may sit unread in the socket when the work ends;
 * awaiting this before acting on a result (charging it) lets such events be handled first.
 */
export function afterPendingIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
