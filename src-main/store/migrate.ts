import { AppError, BugError } from '../core';
import { openDatabase, type Db } from './db';
import { databaseError, isBusyError, isStorageError } from './db-errors';
import { migrations } from './migrations';

/** One schema step. `up` runs inside a transaction together with the user_version bump. */
export interface Migration {
  version: number;
  /** kebab-case reason, as in the file name. */
  name: string;
  up(db: Db): void;
}

/** The highest migration version applied (SQLite `user_version`). */
export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

const hasMigrationsTable = (db: Db): boolean =>
  db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).get() !== undefined;

/**
 * Which versions are applied. Areas own version ranges (1–99, 100–199, …) and land migrations
 * in any order, so "everything ≤ user_version" is not enough: a later 0005 must still run on a
 * database already at 100. Applied versions are recorded one per row; a database from before
 * this table counts every listed version ≤ its user_version as applied (the old rule).
 * Must run inside a write transaction (the caller's IMMEDIATE one), so the answer cannot change
 * before the caller acts on it.
 */
function appliedVersions(db: Db, list: readonly Migration[]): Set<number> {
  if (!hasMigrationsTable(db)) {
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
    const legacy = db.prepare<[number, string, string]>('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const m of list) if (m.version <= schemaVersion(db)) legacy.run(m.version, m.name, 'before-schema-migrations');
  }
  return new Set(
    db
      .prepare<[], { version: number }>('SELECT version FROM schema_migrations')
      .all()
      .map((r) => r.version),
  );
}

/**
 * Refuses a database a newer picscan has upgraded: one with an applied step this build does not
 * list, or a user_version above its highest. Its tables may have changed in ways this build would
 * misread or damage, and it cannot be downgraded, so nothing is read or written.
 */
function refuseNewerSchema(db: Db, list: readonly Migration[]): void {
  const known = new Set(list.map((m) => m.version));
  const highest = Math.max(0, ...known);
  const unknown = hasMigrationsTable(db)
    ? db
        .prepare<[], { version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version')
        .all()
        .find((r) => !known.has(r.version))
    : undefined;
  const version = unknown?.version ?? schemaVersion(db);
  if (unknown === undefined && version <= highest) return;
  const step = unknown ? `schema step ${unknown.version} "${unknown.name}"` : `schema version ${version}`;
  throw new AppError(
    'storage-failed',
    `The database ${db.name} was upgraded by a newer version of picscan (its ${step} is unknown to this one); open it with that version, or use another database file.`,
    { details: { file: db.name, version } },
  );
}

/**
 * Refuses a database some other program made: tables, but neither picscan's record of applied
 * steps nor a user_version (picscan's first step sets it). Migrating it would add picscan's tables
 * to someone else's file (or fail on a name both use with a bare SQLite error), so none is added.
 */
function refuseForeignDatabase(db: Db): void {
  // The tables first: another picscan process committing its first step meanwhile commits its
  // tables with their markers, so the reads after see the markers too.
  const tables = db
    .prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name LIMIT 4`)
    .all()
    .map((r) => r.name);
  if (tables.length === 0 || hasMigrationsTable(db) || schemaVersion(db) !== 0) return;
  throw new AppError(
    'storage-failed',
    `The database ${db.name} is not a picscan database (it holds other tables: ${tables.slice(0, 3).join(', ')}${tables.length > 3 ? ', …' : ''}); nothing was added to it. Use another database file.`,
    { details: { file: db.name } },
  );
}

/**
 * Applies every migration not yet applied, in version order, up to `target` (default: all),
 * each in its own transaction with its record and the user_version bump, so a crash leaves the
 * schema at a known step. Returns the resulting user_version (the highest applied).
 *
 * Several processes may open one new file at once (CLI, server, app). Each step is an IMMEDIATE
 * transaction (it takes the write lock before reading), and what is applied is read again inside
 * it: the second process waits for the first one's step, then sees it done and skips it, instead
 * of failing with "table already exists". Failures are `storage-failed` errors naming the file; so is a database a newer picscan upgraded,
 * or one another program made.
 */
export function migrate(db: Db, target = Number.POSITIVE_INFINITY, list: readonly Migration[] = migrations): number {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.version === sorted[i - 1]!.version) throw new BugError(`Duplicate migration version ${sorted[i]!.version}`);
  }
  try {
    refuseForeignDatabase(db);
    refuseNewerSchema(db, sorted);
    // Read-only check outside a transaction: an up-to-date database (the usual case) takes no write lock.
    if (hasMigrationsTable(db)) {
      const applied = appliedVersions(db, sorted);
      if (sorted.every((m) => m.version > target || applied.has(m.version))) return schemaVersion(db);
    }
    for (const m of sorted) {
      if (m.version > target) break;
      db.transaction(() => {
        if (appliedVersions(db, sorted).has(m.version)) return; // another process applied it meanwhile
        m.up(db);
        db.prepare<[number, string, string]>('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
          m.version,
          m.name,
          new Date().toISOString(),
        );
        if (m.version > schemaVersion(db)) db.pragma(`user_version = ${m.version}`);
      }).immediate();
    }
    return schemaVersion(db);
  } catch (err) {
    // A broken step is a bug and keeps its own message; a file that cannot be written is named.
    throw isStorageError(err) || isBusyError(err) ? databaseError(db.name, err) : err;
  }
}

/**
 * Opens `file` (creating it) and brings its schema up to date; closes it again if migrating
 * fails. The one way the app opens its database (the composition root, and the batch worker
 * threads that need their own connection).
 */
export function openMigrated(file: string): Db {
  const db = openDatabase(file);
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
