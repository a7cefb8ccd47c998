/** The picscan command line: a thin adapter over services. */
export { buildProgram, runCli } from './program';
export { ExitCode } from './exit-codes';
