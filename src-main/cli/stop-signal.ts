/** A long-running command's first SIGINT or SIGTERM, caught from the moment it is asked for. */
export interface StopSignal {
  /** Resolves with the first signal received. */
  readonly received: Promise<NodeJS.Signals>;
}

/**
 * Catches the first SIGINT or SIGTERM from now on. Hosts (`serve`, `worker`) call this before
 * they announce themselves ("listening", "ready"): without a listener Node leaves the signal's
 * default action in place, so a supervisor or test reacting at once to that line would kill the
 * process outright (no clean close, exit by signal) if it was descheduled before its listeners
 * were added. A signal that comes during start-up is kept and acted on once the host is up.
 */
export function catchStopSignal(): StopSignal {
  const received = new Promise<NodeJS.Signals>((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
  return { received };
}
