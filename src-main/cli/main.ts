// Entry of the `picscan` command under plain Node (no Electron).
import { AppError } from '../core';
import { ExitCode } from './exit-codes';
import { runCli } from './program';
import { PARAMETER_CODES } from './spec-exit-codes';

/**
 * A reader that stops early (`picscan export 1 --out - | head -1`) closes the pipe: what is
 * left to print has nowhere to go, which is not a failure of the command. Such a write error
 * is dropped here and, when a command was waiting on the stream, ends it quietly below.
 */
const brokenPipes = new Set<unknown>();
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    brokenPipes.add(err);
  });
}

try {
  process.exitCode = await runCli(process.argv);
} catch (err) {
  if (brokenPipes.has(err)) {
    process.exitCode = ExitCode.ok;
  } else if (err instanceof AppError) {
    process.stderr.write(`picscan: ${err.message}\n`);
    // The contract's parameter codes (a bad flag value) are a bad command line, like invalid-parameter.
    process.exitCode = ['invalid-input', 'invalid-list', ...PARAMETER_CODES].includes(err.code) ? ExitCode.usage : ExitCode.failed;
  } else {
    process.stderr.write(`picscan: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = ExitCode.failed;
  }
}
