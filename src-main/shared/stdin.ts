/**
 * The image input that stands for standard input (`picscan analyze -`): the CLI turns `-` into
 * it, and intake reads the process's own stdin stream for it rather than opening the path (a
 * parent process's stdin may be a socket, which cannot be opened by path: ENXIO).
 */
export const STDIN_PATH = '/dev/stdin';

/**
 * Paths that name this process's standard input. A shell user writes any of them for stdin
 * (`picscan analyze /dev/fd/0`); each is read from the stdin stream for the reason above.
 */
const STDIN_PATHS: ReadonlySet<string> = new Set([STDIN_PATH, '/dev/fd/0', '/proc/self/fd/0']);

export const isStdinPath = (path: string): boolean => STDIN_PATHS.has(path);
