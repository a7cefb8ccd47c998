import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from './db';

/** Which file on disk a connection has open: device and inode at the time it was noted. */
export interface DbFileIdentity {
  readonly file: string;
  readonly dev: number;
  readonly ino: number;
}

/** The identity of the file `db` has open; undefined for an in-memory database. */
export function dbFileIdentity(db: Db): DbFileIdentity | undefined {
  if (db.memory) return undefined;
  const st = statSync(db.name, { throwIfNoEntry: false });
  return st && { file: db.name, dev: st.dev, ino: st.ino };
}

/**
 * Whether the path still names the file the connection has open. A removed or replaced file
 * does not fail any write: SQLite keeps writing to the unlinked inode, and all of it vanishes
 * when the process exits.
 */
export function dbFileState(identity: DbFileIdentity): 'same' | 'removed' | 'replaced' {
  const st = statSync(identity.file, { throwIfNoEntry: false });
  if (!st) return 'removed';
  return st.dev === identity.dev && st.ino === identity.ino ? 'same' : 'replaced';
}

/**
 * Writes everything the connection holds (its WAL included) as a new database file: back at
 * its path when nothing is there any more, else beside it. Returns the file written.
 */
export function saveDbCopy(db: Db, identity: DbFileIdentity, at = new Date()): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  const target = existsSync(identity.file) ? `${identity.file}.saved-${stamp}` : identity.file;
  mkdirSync(dirname(target), { recursive: true }); // the folder may be gone too
  db.prepare('VACUUM INTO ?').run(target);
  return target;
}
