import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchesRepo, migrate, openDatabase } from '../../../src-main/store';
import { ANALYZE_ALL } from '../jobs/support';

const batch = (name: string) => ({ name, operation: ANALYZE_ALL, backend: { kind: 'local' as const } });

describe('migration 9: batch ids are not reused', () => {
  it('gives a new batch a new id after the newest was deleted, in a database file reopened between', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'picscan-m9-')), 'picscan.db');
    let db = openDatabase(file);
    migrate(db, 8);
    // Made before the migration: ids 1 and 2.
    db.prepare(`INSERT INTO batches (name, operation, backend, created_at) VALUES ('a', '{}', '{}', 't'), ('b', '{}', '{}', 't')`).run();
    expect(migrate(db)).toBeGreaterThanOrEqual(9);
    const repo = new BatchesRepo(db);
    expect(repo.insert(batch('c'))).toBe(3);
    expect(repo.delete(3)).toBe(true);
    // Without the migration SQLite gives max(id) + 1 = 3 again.
    expect(repo.insert(batch('d'))).toBe(4);
    expect(repo.delete(4)).toBe(true);
    db.close();

    db = openDatabase(file);
    migrate(db);
    const reopened = new BatchesRepo(db);
    expect(reopened.insert(batch('e'))).toBe(5);
    // An explicit id (older code, a hand-made row) raises the count too.
    db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (20, 'x', '{}', '{}', 't')`).run();
    db.prepare('DELETE FROM batches WHERE id = 20').run();
    expect(reopened.insert(batch('f'))).toBe(21);
    expect(reopened.list().map((b) => [b.id, b.name])).toEqual([
      [21, 'f'],
      [5, 'e'],
      [2, 'b'],
      [1, 'a'],
    ]);
    db.close();
  });
});
