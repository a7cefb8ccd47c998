import { BugError } from '../core';
import type { Db } from './db';
import { migrations } from './migrations';

/** One schema step. `up` runs inside a transaction together with the user_version bump. */
export interface Migration {
  version: number;
  /** kebab-case reason, as in the file name. */
  name: string;
  up(db: Db): void;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies every migration above the current `user_version`, up to `target` (default: latest),
 * each in its own transaction with its version bump, so a crash leaves the schema at a known step.
 */
export function migrate(db: Db, target = Number.POSITIVE_INFINITY, list: readonly Migration[] = migrations): number {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.version === sorted[i - 1]!.version) throw new BugError(`Duplicate migration version ${sorted[i]!.version}`);
  }
  for (const m of sorted) {
    if (m.version > target) break;
    if (m.version <= schemaVersion(db)) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return schemaVersion(db);
}
