import { constants, openSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * A readable stream over a named pipe (`mkfifo`, `<(curl …)`) that stops at once when destroyed.
 * A file stream reads a pipe with blocking reads on libuv's thread pool: destroying it waits for
 * the pending read, so Ctrl-C during `picscan batch <(a stalled producer)` hung until the producer
 * wrote again. Here the pipe is read non-blocking, as a socket. `opened` must be a handle of the
 * same pipe opened normally, which waits for a writer: a non-blocking open alone would read EOF
 * before the writer arrives. It is closed once the non-blocking descriptor is open.
 * Without O_NONBLOCK (Windows, where such pipes do not exist) the handle's own stream is returned.
 */
export async function fifoStream(path: string, opened: FileHandle): Promise<Readable> {
  if (constants.O_NONBLOCK === undefined) return opened.createReadStream();
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  await opened.close();
  return new Socket({ fd, readable: true, writable: false });
}
