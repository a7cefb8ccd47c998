import { migrate, openDatabase, type Db } from '../../src-main/store';

/** A fresh, fully migrated in-memory database (or migrated up to `version`). */
export function createTestDb(version?: number): Db {
  const db = openDatabase(':memory:');
  migrate(db, version);
  return db;
}
