import { migrate, openDatabase, type Db } from '../../store';

/** Opens the app database (WAL, shared with the app and CLI) and brings its schema up to date. */
export function openApiDatabase(dbPath: string): Db {
  const db = openDatabase(dbPath);
  migrate(db);
  return db;
}

export type { Db };
