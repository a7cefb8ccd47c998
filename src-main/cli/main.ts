// Entry of the `picscan` command under plain Node (no Electron).
import { AppError } from '../core';
import { ExitCode } from './exit-codes';
import { terminalLines } from './flags';
import { cannotWrite } from './out-path';
import { runCli } from './program';
import { PARAMETER_CODES } from './spec-exit-codes';

/**
 * Write errors of stdout and stderr. A reader that stops early (`picscan export 1 --out - | head -1`)
 * closes the pipe: what is left to print has nowhere to go, which is not a failure of the command,
 * so it ends quietly. Any other (stdout redirected to a full disk…) is one line and exit 1.
 */
const outputErrors = new Set<unknown>();
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (outputErrors.size === 0 && err.code !== 'EPIPE' && stream === process.stdout) {
      process.stderr.write(`picscan: ${cannotWrite('the standard output', err).message}\n`);
      process.exitCode = ExitCode.failed;
    }
    outputErrors.add(err);
  });
}

try {
  process.exitCode = await runCli(process.argv);
} catch (err) {
  if (outputErrors.has(err)) {
    // Already said (or a closed pipe, which needs no word); the exit code is set.
  } else if (err instanceof AppError) {
    process.stderr.write(`picscan: ${terminalLines(err.message)}\n`);
    // The contract's parameter codes (a bad flag value) are a bad command line, like invalid-parameter.
    process.exitCode = ['invalid-input', 'invalid-list', ...PARAMETER_CODES].includes(err.code) ? ExitCode.usage : ExitCode.failed;
  } else {
    process.stderr.write(`picscan: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = ExitCode.failed;
  }
}
