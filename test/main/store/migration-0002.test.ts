import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 2: results', () => {
  it('keeps existing batches and items, and adds result tables that cascade from items', () => {
    const db = createTestDb(1);
    db.prepare(
      `INSERT INTO batches (id, name, operation, backend, created_at) VALUES (1, 'b', '{"kind":"analyze"}', '{"kind":"local"}', 't')`,
    ).run();
    db.prepare(`INSERT INTO items (id, batch_id, line, url, status) VALUES (7, 1, 1, 'http://a/1.jpg', 'done')`).run();
    expect(migrate(db, 2)).toBe(2);
    expect(db.prepare('SELECT id, batch_id, url, status FROM items').all()).toEqual([
      { id: 7, batch_id: 1, url: 'http://a/1.jpg', status: 'done' },
    ]);
    db.prepare(`INSERT INTO results (item_id, batch_id, sha256, op_key, response, face_count) VALUES (7, 1, 'ab', 'k', '{}', 2)`).run();
    db.prepare(`INSERT INTO result_tags (item_id, batch_id, name, confidence) VALUES (7, 1, 'dog', 0.9)`).run();
    db.prepare(`INSERT INTO thumbnails (item_id, mime, bytes) VALUES (7, 'image/webp', x'00')`).run();
    db.prepare('DELETE FROM items WHERE id = 7').run();
    for (const t of ['results', 'result_tags', 'thumbnails']) expect(db.prepare(`SELECT count(*) AS n FROM ${t}`).get()).toEqual({ n: 0 });
  });
});
