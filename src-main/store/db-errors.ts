import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../core';

/**
 * SQLite result codes (extended codes start with these) that mean "the file cannot be used or
 * written": not an item's fault, so a batch pauses on them instead of failing items.
 */
const STORAGE_CODE_PREFIXES = [
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_PERM',
];

/** Another connection holds the lock (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED…): wait and retry. */
export function isBusyError(err: unknown): boolean {
  return err instanceof Database.SqliteError && (err.code.startsWith('SQLITE_BUSY') || err.code.startsWith('SQLITE_LOCKED'));
}

/** The database file cannot be read or written (disk full, I/O error, read-only, damaged…). */
export function isStorageError(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'storage-failed';
  return err instanceof Database.SqliteError && STORAGE_CODE_PREFIXES.some((p) => err.code.startsWith(p));
}

const nodeCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

/** Why `file` cannot be opened or created, from the file system (SQLite only says "unable to open"). */
function cannotOpenReason(file: string): string {
  try {
    if (statSync(file).isDirectory()) return 'is a directory, not a database file';
  } catch (err) {
    if (nodeCode(err) === 'ENOTDIR') return 'is not a valid path (a part of it is a file, not a folder)';
    if (nodeCode(err) === 'EACCES') return 'cannot be reached: permission denied';
  }
  try {
    accessSync(dirname(file), constants.W_OK);
  } catch {
    return `cannot be created or opened: permission denied on the folder ${dirname(file)}`;
  }
  return 'cannot be opened';
}

/** One sentence about what is wrong with the file, by SQLite (or file system) error code. */
function reasonOf(file: string, err: unknown): string {
  const code = nodeCode(err) ?? '';
  if (code === 'SQLITE_NOTADB') return 'is not a database (or is encrypted)';
  if (code.startsWith('SQLITE_CORRUPT')) return 'is damaged (database disk image is malformed)';
  if (code === 'SQLITE_READONLY_DIRECTORY') return 'is read-only: its folder cannot be written (permission denied)';
  if (code.startsWith('SQLITE_READONLY')) return 'is read-only: permission denied or a read-only file system';
  if (code === 'SQLITE_FULL') return 'cannot grow: the disk is full (or the database reached its size limit)';
  if (code.startsWith('SQLITE_IOERR')) return `cannot be written: I/O error (${code})`;
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM') return cannotOpenReason(file);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'is locked by another process for too long';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be created: permission denied';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'is not a valid path (a part of it is a file, not a folder)';
  if (code === 'EROFS') return 'is on a read-only file system';
  if (code === 'ENOSPC') return 'cannot be created: the disk is full';
  return 'cannot be used';
}

/**
 * better-sqlite3's compiled module would not load (Node's ERR_DLOPEN_FAILED on the first
 * `new Database`): nothing is wrong with the file. The usual cause is a node_modules installed
 * under another Node.js major (20 and 22 differ in NODE_MODULE_VERSION); the cure is rebuilding.
 */
function nativeModuleError(file: string, err: unknown, detail: string): AppError {
  const abi = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(detail);
  const why = abi
    ? `was built for another Node.js version (NODE_MODULE_VERSION ${abi[1]}; Node.js ${process.version} needs ${abi[2]})`
    : `could not be loaded (${detail.replace(/\s+/g, ' ').trim()})`;
  return new AppError(
    'storage-failed',
    `The database ${file} cannot be opened: better-sqlite3's native module ${why}. ` +
      'Run `npm rebuild better-sqlite3` (or `npm ci`) with the Node.js that runs picscan.',
    { cause: err, details: { file } },
  );
}

/**
 * Turns a failure to open, migrate or write the database `file` into an AppError
 * (`storage-failed`) whose message names the file and says what is wrong, without a stack.
 */
export function databaseError(file: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  if (nodeCode(err) === 'ERR_DLOPEN_FAILED') return nativeModuleError(file, err, detail);
  return new AppError('storage-failed', `The database ${file} ${reasonOf(file, err)} (${detail}).`, {
    cause: err,
    details: { file, ...(nodeCode(err) ? { sqlite: nodeCode(err)! } : {}) },
  });
}
