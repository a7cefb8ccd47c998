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
