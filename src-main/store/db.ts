import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../core';

export type Db = Database.Database;

/**
 * Opens (creating if needed) a picscan database with the pragmas every connection needs:
 * WAL (readers never block the writer), foreign keys on, NORMAL sync (durable at checkpoints,
 * safe against application crashes), and a busy timeout so CLI, server and app can share a file.
 * Use ':memory:' for tests.
 */
export function openDatabase(file: string, opts: { readonly?: boolean } = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  let db: Db;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false });
  } catch (err) {
    throw new AppError('invalid-input', `Cannot open the database ${file}: ${(err as Error).message}`, { cause: err });
  }
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}
