import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

const search = (db: ReturnType<typeof createTestDb>, text: string): unknown[] =>
  db.prepare('SELECT rowid AS id FROM result_captions WHERE result_captions MATCH ? ORDER BY rowid').all(`"${text}"`);

describe('migration 3: caption search index', () => {
  it('indexes captions stored before it, then keeps the index in step with inserts and deletes', () => {
    const db = createTestDb(2);
    db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (1, 'b', '{}', '{}', 't')`).run();
    const item = db.prepare(`INSERT INTO items (id, batch_id, line, url) VALUES (?, 1, ?, ?)`);
    const result = db.prepare(
      `INSERT INTO results (item_id, batch_id, sha256, op_key, response, caption) VALUES (?, 1, 's', 'k', '{}', ?)`,
    );
    item.run(1, 1, 'http://a/1');
    result.run(1, 'A Cat sitting on a sofa');
    item.run(2, 2, 'http://a/2');
    result.run(2, null);
    expect(migrate(db, 3)).toBe(3);
    expect(search(db, 'cat sit')).toEqual([{ id: 1 }]);
    item.run(3, 3, 'http://a/3');
    result.run(3, 'two cats');
    expect(search(db, 'CAT')).toEqual([{ id: 1 }, { id: 3 }]);
    db.prepare('DELETE FROM items WHERE id = 1').run();
    expect(search(db, 'cat')).toEqual([{ id: 3 }]);
  });
});
