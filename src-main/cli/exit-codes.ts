/**
 * Process exit codes of the picscan command (documented in README.md).
 * A spec-level error body (e.g. detect's "no faces found") is a normal result: exit 0.
 */
export const ExitCode = {
  ok: 0,
  /** The command ran but failed (unreachable image, model error, batch with failures…). */
  failed: 1,
  /** Bad command line: unknown option, missing argument, invalid value. */
  usage: 2,
  /** Interrupted by the user (Ctrl-C); a batch is paused and can be resumed. */
  interrupted: 130,
  /** Asked to stop by SIGTERM (a service manager, `kill`); a batch is paused and can be resumed. */
  terminated: 143,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit code of a command stopped by `signal`: 143 for SIGTERM, else 130 (Ctrl-C). */
export const signalExitCode = (signal: NodeJS.Signals): number => (signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted);
