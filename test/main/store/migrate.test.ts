import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, schemaVersion, type Migration } from '../../../src-main/store';

const steps: Migration[] = [
  { version: 1, name: 'create-a', up: (db) => db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY)') },
  { version: 2, name: 'create-b', up: (db) => db.exec('CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id))') },
  { version: 3, name: 'broken', up: (db) => db.exec('CREATE TABLE c (id INTEGER PRIMARY KEY); SELECT * FROM no_such_table') },
];

describe('migration runner', () => {
  it('opens a file database with WAL and foreign keys on', () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'picscan-db-')), 'sub', 'x.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('applies steps in order up to a target and records user_version', () => {
    const db = openDatabase(':memory:');
    expect(migrate(db, 1, steps)).toBe(1);
    expect(migrate(db, 2, steps)).toBe(2);
    expect(schemaVersion(db)).toBe(2);
  });

  it('rolls back a failing step as a whole, leaving the previous version', () => {
    const db = openDatabase(':memory:');
    expect(() => migrate(db, 3, steps)).toThrow(/no_such_table/);
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'c'").get()).toEqual({ n: 0 });
  });

  it('refuses duplicate versions', () => {
    const db = openDatabase(':memory:');
    expect(() => migrate(db, undefined, [steps[0]!, { ...steps[1]!, version: 1 }])).toThrow(/Duplicate migration version 1/);
  });
});

describe('migrations landing out of order', () => {
  it('still applies a lower version added after a higher one was applied', () => {
    const db = openDatabase(':memory:');
    const a = steps[0]!;
    const late: Migration = { version: 5, name: 'create-late', up: (d) => d.exec('CREATE TABLE late (id INTEGER PRIMARY KEY)') };
    const high: Migration = { version: 100, name: 'create-high', up: (d) => d.exec('CREATE TABLE high (id INTEGER PRIMARY KEY)') };
    expect(migrate(db, undefined, [a, high])).toBe(100);
    expect(migrate(db, undefined, [a, late, high])).toBe(100);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('late', 'high') ORDER BY name").all()).toEqual([
      { name: 'high' },
      { name: 'late' },
    ]);
    expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1 },
      { version: 5 },
      { version: 100 },
    ]);
  });

  it('treats a database from before the record table as having every version up to user_version', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY)');
    db.pragma('user_version = 1');
    expect(migrate(db, 2, steps)).toBe(2);
    expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual([{ version: 1 }, { version: 2 }]);
  });
});

describe('a database a newer picscan upgraded', () => {
  const file = (): string => join(mkdtempSync(join(tmpdir(), 'picscan-db-')), 'newer.db');

  it('is refused, naming the unknown step, and left as it was', () => {
    const path = file();
    const newer = openDatabase(path);
    migrate(newer, undefined, [...steps.slice(0, 2), { version: 9, name: 'create-future', up: (d) => d.exec('CREATE TABLE future (x)') }]);
    newer.close();
    const db = openDatabase(path);
    expect(() => migrate(db, undefined, steps.slice(0, 2))).toThrow(
      expect.objectContaining({
        code: 'storage-failed',
        message: expect.stringMatching(/newer version of picscan.*step 9 "create-future"/),
      }),
    );
    expect(schemaVersion(db)).toBe(9);
    expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 9 },
    ]);
    db.close();
  });

  it('is refused by its user_version alone when it predates the record table, and gains no table', () => {
    const db = openDatabase(file());
    db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY)');
    db.pragma('user_version = 250');
    expect(() => migrate(db, undefined, steps.slice(0, 2))).toThrow(/newer version of picscan.*schema version 250/);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('b', 'schema_migrations')").get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('a database another program made', () => {
  const steps2 = steps.slice(0, 2);

  it('is refused, naming its tables, and gets none of ours (also when a name collides)', () => {
    for (const own of ['CREATE TABLE notes (text TEXT)', 'CREATE TABLE a (x TEXT, y TEXT)']) {
      const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'picscan-db-')), 'other.db'));
      db.exec(own);
      expect(() => migrate(db, undefined, steps2)).toThrow(
        expect.objectContaining({
          code: 'storage-failed',
          message: expect.stringMatching(/is not a picscan database \(it holds other tables: (notes|a)\)/),
        }),
      );
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()).toEqual({ n: 1 });
      db.close();
    }
  });

  it('does not include an empty file or a picscan database from before the record table', () => {
    const fresh = openDatabase(':memory:');
    expect(migrate(fresh, undefined, steps2)).toBe(2);
    const legacy = openDatabase(':memory:');
    legacy.exec('CREATE TABLE a (id INTEGER PRIMARY KEY)');
    legacy.pragma('user_version = 1');
    expect(migrate(legacy, undefined, steps2)).toBe(2);
  });
});
