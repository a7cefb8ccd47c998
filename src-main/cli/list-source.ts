import { constants } from 'node:fs';
import { access, open, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { basename, dirname, extname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../core';
import { fifoStream } from './fifo-stream';
import type { ListFormat } from '../shared/list-layout';
import { isStdinPath } from '../shared/stdin';

/** The list `picscan batch` reads, and how its lines are read. */
export interface ListSource {
  source: Readable;
  format: ListFormat;
  /** The batch's default name. */
  name: string;
  /** Where relative paths in the list are read from; `undefined` when the working directory was removed. */
  baseDir: string | undefined;
}

/** `/dev/stdin`, `/dev/fd/3`, `/proc/self/fd/3`: a descriptor of this process, named by path. */
const OWN_DESCRIPTOR = /^\/(?:dev\/fd|proc\/self\/fd)\/(\d+)$/;

function ownDescriptor(path: string): number | undefined {
  if (isStdinPath(path)) return 0;
  const match = OWN_DESCRIPTOR.exec(path);
  return match ? Number(match[1]) : undefined;
}

/** The working directory, or `undefined` when it was removed (relative lines then stay invalid). */
function workingDir(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

function unreadable(list: string, why?: string): AppError {
  return new AppError('invalid-input', `Cannot read the list ${list}${why ? `: ${why}` : ''}.`);
}

/**
 * Opens the list. `baseDir` is where its relative paths are read from, as a media player reads a
 * playlist's: the folder of a list file (as its path names it: `find photos -name '*.jpg' > list.txt`
 * writes paths relative to the list's folder), and the working directory for stdin and pipes
 * (`find … | picscan batch -`, `<(find …)`, whose `/dev/fd/…` folder means nothing).
 * Every way it can fail to open is an `invalid-input` error here, before a batch exists.
 */
export async function openList(list: string, format: string): Promise<ListSource> {
  if (!['auto', 'txt', 'csv'].includes(format))
    throw new AppError('invalid-parameter', `--format must be auto, txt or csv, not "${format}".`);
  if (list === '-') return { source: process.stdin, format: format as ListFormat, name: 'stdin', baseDir: workingDir() };
  try {
    await access(list, constants.R_OK);
  } catch {
    throw unreadable(list);
  }
  // A folder passes the access check and fails only at the first read.
  const kind = await stat(list);
  if (kind.isDirectory()) throw unreadable(list, 'it is a folder');
  const byExt = extname(list).toLowerCase() === '.csv' ? 'csv' : extname(list).toLowerCase() === '.txt' ? 'txt' : 'auto';
  const listFormat = format === 'auto' ? byExt : (format as ListFormat);
  const path = resolve(list);
  const descriptor = ownDescriptor(path);
  // `<(find …)` reaches us as /dev/fd/63: its number is no name for the batch.
  const name = descriptor === undefined || kind.isFile() ? basename(list) : descriptor === 0 ? 'stdin' : 'pipe';
  const baseDir = kind.isFile() && !path.startsWith('/dev/') ? dirname(path) : workingDir();
  if (kind.isSocket()) {
    // A parent may hand us a socket where a shell would give a pipe (Node's spawn, systemd, ssh):
    // the kernel opens no socket by path, so a descriptor of ours is read as it is.
    if (descriptor === undefined) throw unreadable(list, 'it is a socket; give the list as a file, a pipe or on standard input (-)');
    const source = descriptor === 0 ? process.stdin : new Socket({ fd: descriptor, readable: true, writable: false });
    return { source, format: listFormat, name, baseDir };
  }
  // A named pipe (`<(curl …)`) is read so that Ctrl-C stops the import even while it waits for input.
  if (kind.isFIFO()) return { source: await fifoStream(list), format: listFormat, name, baseDir };
  let file;
  try {
    file = await open(list, 'r');
  } catch (err) {
    throw unreadable(list, (err as Error).message);
  }
  return { source: file.createReadStream(), format: listFormat, name, baseDir };
}
