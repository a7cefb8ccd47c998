import { consoleLogger, sleep } from '../core';

/**
 * How long quitting waits for the model runs in flight to return, ms: a run cannot be
 * interrupted and takes up to about a second on a busy 2-core machine.
 */
export const HALT_WAIT_MS = 2_500;

let quitting: Promise<never> | undefined;

/**
 * Exits now with `code`, without the clean close (a second Ctrl-C, a worker giving up), after
 * `halt` stopped the model threads (at most HALT_WAIT_MS): exiting while a thread is inside an
 * ONNX Runtime run aborts the process (SIGABRT, exit 134) instead (inference/run-gate.ts). Later
 * calls (a third signal) join the first.
 */
export function quitNow(code: number, halt: () => Promise<void>): Promise<never> {
  quitting ??= (async () => {
    const halted = halt().then(
      () => true,
      () => false,
    );
    // A halt that fails or outlasts the wait: exit anyway, saying so (the exit may then abort).
    if (!(await Promise.race([halted, sleep(HALT_WAIT_MS).then(() => false)])))
      consoleLogger.warn(`The model threads did not stop within ${HALT_WAIT_MS / 1000} s; exiting anyway.`);
    process.exit(code);
  })();
  return quitting;
}
