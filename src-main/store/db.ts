import Database from 'better-sqlite3';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../core';
import { databaseError, isBusyError } from './db-errors';

export type Db = Database.Database;

/**
 * How long a statement waits for another connection's lock before SQLITE_BUSY, in ms. Writers
 * hold the lock for one short transaction (one item's result), so this is ample; the batch
 * code retries on top of it (`withBusyRetry`).
 */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (creating if needed) a picscan database with the pragmas every connection needs:
 * WAL (readers never block the writer), foreign keys on, NORMAL sync (durable at checkpoints,
 * safe against application crashes), and a busy timeout so CLI, server and app can share a file.
 * Use ':memory:' for tests. Any failure (a directory, not a database, permission denied,
 * read-only) is an AppError `storage-failed` naming the file, and nothing is left open.
 */
export function openDatabase(file: string, opts: { readonly?: boolean } = {}): Db {
  if (file !== ':memory:') {
    try {
      if (statSync(file, { throwIfNoEntry: false })?.isDirectory())
        throw new AppError('storage-failed', `The database ${file} is a directory, not a database file.`, { details: { file } });
      mkdirSync(dirname(file), { recursive: true });
    } catch (err) {
      throw databaseError(file, err);
    }
  }
  let db: Db | undefined;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false });
    // The busy timeout first: switching to WAL takes a lock another process may hold.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!opts.readonly) switchToWal(db);
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    // Reads the header: "not a database" shows here rather than mid-command.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (err) {
    db?.close();
    throw databaseError(file, err);
  }
}

/** Pause between attempts to switch a busy file to WAL, ms. */
const WAL_RETRY_MS = 20;

/**
 * `journal_mode = WAL`, retried for up to BUSY_TIMEOUT_MS. On a fresh file that several
 * processes open at once (CLI, server and app starting together) the switch can fail with
 * SQLITE_BUSY at once: SQLite skips the busy handler when waiting could deadlock (this connection
 * holds a read lock and needs the exclusive one). Retrying the whole statement releases that
 * read lock in between, so the other process finishes its switch and this one then succeeds.
 */
function switchToWal(db: Db): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if (!isBusyError(err) || Date.now() >= deadline) throw err;
      // A synchronous pause: opening a database is synchronous.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAL_RETRY_MS);
    }
  }
}
