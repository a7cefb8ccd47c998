import { AppError } from '../core';
import { signalExitCode } from './exit-codes';

/** How a long step of a command (an import, a delete) ended: its value, or the signal that stopped it. */
export type Interruptible<T> = { value: T } | { interrupted: NodeJS.Signals; exitCode: number };

/**
 * Runs a long step that Ctrl-C or SIGTERM stops through `signal` (the step leaves what it did in
 * a state the caller can describe), instead of killing the process mid-way without a word. A
 * second signal quits at once. `doing` names the step in the line printed at the first signal.
 */
export async function interruptible<T>(doing: string, run: (signal: AbortSignal) => Promise<T>): Promise<Interruptible<T>> {
  const controller = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) process.exit(signalExitCode(signal));
    interrupted = signal;
    process.stderr.write(`\nStopping ${doing}… (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit now)\n`);
    controller.abort(new AppError('cancelled', `${doing} was interrupted.`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return { value: await run(controller.signal) };
  } catch (err) {
    if (!interrupted) throw err;
    return { interrupted, exitCode: signalExitCode(interrupted) };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
