/**
 * The image input that stands for standard input (`picscan analyze -`): the CLI turns `-` into
 * it, and intake reads the process's own stdin stream for it rather than opening the path (a
 * parent process's stdin may be a socket, which cannot be opened by path: ENXIO).
 */
export const STDIN_PATH = '/dev/stdin';
