import { constants, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * A readable stream over a named pipe (`mkfifo`, `<(curl …)`) that stops at once when destroyed.
 * A file stream reads a pipe with blocking reads on libuv's thread pool: destroying it waits for
 * the pending read, so Ctrl-C during `picscan batch <(a stalled producer)` hung until the producer
 * wrote again. Here the pipe is read non-blocking, as a socket. It is first opened normally,
 * which waits for a writer (a non-blocking open alone would read EOF before the writer arrives),
 * then once more non-blocking, and the first descriptor is closed.
 * Without O_NONBLOCK (Windows, where such pipes do not exist) it is an ordinary file stream.
 */
export async function fifoStream(path: string): Promise<Readable> {
  const opened = await open(path, 'r');
  if (constants.O_NONBLOCK === undefined) return opened.createReadStream();
  try {
    return new Socket({ fd: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
  } finally {
    await opened.close();
  }
}
