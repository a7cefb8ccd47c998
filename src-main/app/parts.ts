import { AppError } from '../core';

/** One piece of the backend, built on first use and disposed once. */
export interface Part<T> {
  (): T;
  /** True once built (close disposes only what was built). */
  readonly built: boolean;
  dispose(): Promise<void>;
}

/**
 * A lazily built part: `build` runs on the first call (a throw is not cached: the next call
 * tries again, e.g. once the models are installed), `dispose` only if it was built. Once
 * `closed()` says so, asking for a part is refused (`cancelled`): nothing is used or rebuilt
 * during or after shutdown.
 */
export function part<T>(name: string, closed: () => boolean, build: () => T, dispose?: (value: T) => unknown): Part<T> {
  let value: { v: T } | undefined;
  const get = (): T => {
    if (closed()) throw new AppError('cancelled', `The backend is closing: ${name} is no longer available.`);
    if (value) return value.v;
    value = { v: build() };
    return value.v;
  };
  return Object.assign(get, {
    get built() {
      return value !== undefined;
    },
    async dispose() {
      const v = value;
      if (!v) return;
      await dispose?.(v.v);
    },
  }) as Part<T>;
}

/**
 * Disposes `parts` in the order given (dependants first), every one even when an earlier one
 * fails; the first failure is rethrown at the end.
 */
export async function disposeAll(parts: ReadonlyArray<{ dispose(): Promise<void> }>): Promise<void> {
  const failures: unknown[] = [];
  for (const p of parts) {
    try {
      await p.dispose();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length) throw failures[0];
}
