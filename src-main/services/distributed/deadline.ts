/**
 * Waits for `work` at most `ms`; then resolves with `fallback` (the work goes on, unobserved).
 * Redis clients queue commands while reconnecting, so a stop or a close must not wait on them.
 */
export async function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}
