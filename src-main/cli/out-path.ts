/**
 * Output paths named on the command line (`--out`, `--thumbnails`, `gallery export <file>`): a
 * path that cannot be written is a bad command line (exit 2) with one line naming the path and
 * the reason, checked before any expensive work where that is cheap, and mapped the same way
 * when the write itself fails later.
 */
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { AppError } from '../core';

/** What the output path is meant to be: the reasons differ (EEXIST from mkdir means "a file is in the way"). */
type OutKind = 'file' | 'folder';

/** The system error code of a failed file operation, if it has one. */
const errnoOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

/** The reason in words for the usual system errors; anything else keeps the system's own message. */
function reasonOf(err: unknown, path: string, kind: OutKind): string {
  switch (errnoOf(err)) {
    case 'ENOENT':
      return `the folder ${dirname(resolve(path))} does not exist`;
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EISDIR':
      return 'it is a folder';
    case 'EEXIST':
      return kind === 'folder' ? 'it is a file, not a folder' : 'it already exists';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/** The refusal of an output path that cannot be written (`invalid-input`: exit 2, like any bad argument). */
export function cannotWrite(path: string, err: unknown, kind: OutKind = 'file'): AppError {
  return new AppError('invalid-input', `Cannot write ${path}: ${reasonOf(err, path, kind)}.`, { cause: err });
}

/** A system-style error for a problem found by looking rather than by a failed call. */
const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

/**
 * Checks, without creating anything, that a file can be written at `path`: it is not a folder,
 * its folder exists, and the file (or, for a new file, its folder) is writable. For commands that
 * work before they write, so a typo in the path fails at once; the write is still mapped with
 * `cannotWrite`, as the file system can change meanwhile.
 */
export async function checkWritableFile(path: string): Promise<void> {
  try {
    const target = await stat(path).catch((err: unknown) => (errnoOf(err) === 'ENOENT' ? undefined : Promise.reject(err)));
    if (target?.isDirectory()) throw errno('EISDIR');
    const folder = await stat(dirname(resolve(path)));
    if (!folder.isDirectory()) throw errno('ENOTDIR');
    await access(target ? path : dirname(resolve(path)), constants.W_OK);
  } catch (err) {
    throw cannotWrite(path, err);
  }
}

/** Creates the output folder `path` (and its parents) if needed and checks it is writable. */
export async function makeWritableFolder(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true });
    await access(path, constants.W_OK);
  } catch (err) {
    throw cannotWrite(path, err, 'folder');
  }
}
