// Entry of the `picscan` command under plain Node (no Electron).
import { AppError } from '../core';
import { ExitCode } from './exit-codes';
import { runCli } from './program';
import { PARAMETER_CODES } from './spec-exit-codes';

try {
  process.exitCode = await runCli(process.argv);
} catch (err) {
  if (err instanceof AppError) {
    process.stderr.write(`picscan: ${err.message}\n`);
    // The contract's parameter codes (a bad flag value) are a bad command line, like invalid-parameter.
    process.exitCode = ['invalid-input', 'invalid-list', ...PARAMETER_CODES].includes(err.code) ? ExitCode.usage : ExitCode.failed;
  } else {
    process.stderr.write(`picscan: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = ExitCode.failed;
  }
}
