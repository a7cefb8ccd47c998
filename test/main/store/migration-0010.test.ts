import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 10: item worker', () => {
  it('keeps existing items (worker unset) and lets new ones record their worker', () => {
    const db = createTestDb(6);
    db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (1, 'b', '{}', '{}', 't')`).run();
    db.prepare(`INSERT INTO items (id, batch_id, line, url, status) VALUES (1, 1, 1, 'https://x/a.jpg', 'done')`).run();
    expect(migrate(db, 10)).toBe(10);
    expect(db.prepare('SELECT id, status, worker FROM items').all()).toEqual([{ id: 1, status: 'done', worker: null }]);
    db.prepare(`UPDATE items SET worker = 'gpu-box-1' WHERE id = 1`).run();
    expect(db.prepare('SELECT worker FROM items WHERE id = 1').get()).toEqual({ worker: 'gpu-box-1' });
  });
});
