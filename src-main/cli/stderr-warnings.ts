import type { Logger } from '../core';
import { terminalText } from './flags';

const line = (msg: string): void => {
  process.stderr.write(`${terminalText(msg)}\n`);
};

/**
 * The logger of a one-shot batch command (`picscan cancel`, `picscan delete`): what the user must
 * know, such as a batch whose data Redis did not let go of, as a plain line on stderr; the rest
 * dropped (the command prints its own outcome).
 */
export const stderrWarnings: Logger = { debug() {}, info() {}, warn: line, error: line };
