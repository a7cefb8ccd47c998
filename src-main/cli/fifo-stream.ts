import { constants, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * A readable stream over a named pipe (`mkfifo`, `<(curl …)`) that stops at once when destroyed.
 * A file stream reads a pipe with blocking reads on libuv's thread pool: destroying it waits for
 * the pending read, so Ctrl-C during `picscan batch <(a stalled producer)` hung until the producer
 * wrote again. Here the pipe is read non-blocking, as a socket.
 *
 * How it is opened depends on the kernel's rule for a reader that opened before any writer:
 * - Linux opens non-blocking at once and reports no end of input until a writer has come and gone
 *   (fs/pipe.c suppresses the hang-up "until we have seen a writer"). A blocking open first, then
 *   a second non-blocking one, must not be used there: a producer that writes and exits between
 *   the two (`printf … > list &`) leaves the second descriptor waiting for an end that never comes.
 * - Elsewhere a non-blocking reader may read the end before the writer arrives, so the pipe is first
 *   opened normally, which waits for a writer, then once more non-blocking, and the first closed.
 * Without O_NONBLOCK (Windows, where such pipes do not exist) it is an ordinary file stream.
 */
export async function fifoStream(path: string): Promise<Readable> {
  if (constants.O_NONBLOCK === undefined) return (await open(path, 'r')).createReadStream();
  if (process.platform === 'linux') return nonBlockingReader(path);
  const opened = await open(path, 'r');
  try {
    return nonBlockingReader(path);
  } finally {
    await opened.close();
  }
}

function nonBlockingReader(path: string): Readable {
  return new Socket({ fd: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
}
