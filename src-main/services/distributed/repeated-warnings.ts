import { counted } from '../../shared';

/**
 * Redis failures come in bursts: every client of a process (the connection, BullMQ's worker with
 * its blocking client, each results queue) reports the same failure at each reconnection attempt,
 * three lines per attempt for a worker whose Redis host does not resolve (measured: 19 lines in
 * its first 6 s). A warning is written the first time; the same failure again within `windowMs`
 * is only counted, and the count is written with its next occurrence after the window.
 */
export const REPEATED_WARNINGS = { windowMs: 60_000, maxKept: 100 } as const;

/** Writes warnings through `warn`, each failure once per window (see REPEATED_WARNINGS). */
export interface RepeatedWarnings {
  /** `message` unless the same `failure` was written less than the window ago. */
  warn(failure: string, message: string): void;
  /** Forgets what was written (the connection is back: its next failure is news). */
  reset(): void;
}

export function repeatedWarnings(warn: (message: string) => void, now: () => number = Date.now): RepeatedWarnings {
  const written = new Map<string, { at: number; since: number }>();
  return {
    warn(failure, message) {
      const t = now();
      const last = written.get(failure);
      if (last && t - last.at < REPEATED_WARNINGS.windowMs) {
        last.since++;
        return;
      }
      const repeats = last?.since ? ` (repeated ${counted(last.since, 'time')} in the last ${Math.round((t - last.at) / 1000)} s)` : '';
      warn(message + repeats);
      written.delete(failure);
      if (written.size >= REPEATED_WARNINGS.maxKept) written.delete(written.keys().next().value!);
      written.set(failure, { at: t, since: 0 });
    },
    reset() {
      written.clear();
    },
  };
}
