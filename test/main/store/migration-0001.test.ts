import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 1: batches and items', () => {
  it('creates batches and items, collapsing duplicate URLs per batch and cascading deletes', () => {
    const db = createTestDb(0);
    expect(migrate(db, 1)).toBe(1);
    db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (1, 'b', '{}', '{}', 'now')`).run();
    const insert = db.prepare(`INSERT OR IGNORE INTO items (batch_id, line, url) VALUES (1, ?, ?)`);
    insert.run(1, 'http://a/1.jpg');
    insert.run(2, 'http://a/1.jpg');
    insert.run(3, 'http://a/2.jpg');
    expect(db.prepare('SELECT line, url, status, attempts FROM items ORDER BY id').all()).toEqual([
      { line: 1, url: 'http://a/1.jpg', status: 'queued', attempts: 0 },
      { line: 3, url: 'http://a/2.jpg', status: 'queued', attempts: 0 },
    ]);
    expect(() => db.prepare(`UPDATE items SET status = 'bogus'`).run()).toThrow(/CHECK/);
    db.prepare('DELETE FROM batches WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 0 });
    expect(schemaVersion(db)).toBe(1);
  });
});
