/** A long-running command's first SIGINT or SIGTERM, caught from the moment it is asked for. */
export interface StopSignal {
  /** Resolves with the first signal received. */
  readonly received: Promise<NodeJS.Signals>;
}

/** A stop signal whose later signals (a second Ctrl-C: "stop now") are handled too. */
export interface RepeatedStopSignal extends StopSignal {
  /**
   * From now on, every signal after the first goes to `handler`. Until a handler is set, a later
   * signal takes Node's default action (the process ends by the signal).
   */
  onAgain(handler: (signal: NodeJS.Signals) => void): void;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Catches SIGINT and SIGTERM from now on. Hosts (`serve`, `worker`) call this before they announce
 * themselves ("listening", "ready"): without a listener Node leaves the signal's default action in
 * place, so a supervisor or test reacting at once to that line would kill the process outright (no
 * clean close, exit by signal) if it was descheduled before its listeners were added. A signal that
 * comes during start-up is kept and acted on once the host is up.
 * The listeners stay after the first signal, so a second one reaches `onAgain`'s handler however
 * soon it follows. (Removing the listeners on the first signal and adding new ones after announcing
 * "stopping…" left a moment with none: a supervisor reacting to that line while the process was
 * descheduled killed it by the signal, skipping the handler.)
 */
export function catchStopSignals(): RepeatedStopSignal {
  let first = true;
  let again: ((signal: NodeJS.Signals) => void) | undefined;
  let resolveFirst!: (signal: NodeJS.Signals) => void;
  const received = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const on = (signal: NodeJS.Signals): void => {
    if (first) {
      first = false;
      resolveFirst(signal);
    } else if (again) {
      again(signal);
    } else {
      // No handler yet: the default action, as if nothing listened.
      for (const s of STOP_SIGNALS) process.off(s, on);
      process.kill(process.pid, signal);
    }
  };
  for (const s of STOP_SIGNALS) process.on(s, on);
  return { received, onAgain: (handler) => void (again = handler) };
}
