import { Command, CommanderError } from 'commander';
import { loadConfig } from '../config';
import { ExitCode } from './exit-codes';
import { commands } from './commands';

/**
 * Builds the `picscan` command tree. Each command lives in `commands/<name>.ts` and is a thin
 * adapter over services: parse flags, call a service, print, pick an exit code.
 */
export function buildProgram(): Command {
  const { version } = loadConfig();
  const program = new Command('picscan')
    .description('Offline batch image analysis: categories, tags, captions, faces, adult content and colours from local models.')
    .version(version, '-v, --version', 'print the version')
    .showHelpAfterError('(run picscan --help for usage)')
    .exitOverride();
  for (const register of commands) register(program);
  return program;
}

/** Runs the CLI with `argv` (as process.argv) and resolves to the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return ExitCode.ok;
      return ExitCode.usage;
    }
    throw err;
  }
}
