import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 8: item worker', () => {
  it('keeps existing items (worker unset) and lets new ones record their worker', () => {
    const db = createTestDb(7);
    db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (1, 'b', '{}', '{}', 't')`).run();
    db.prepare(`INSERT INTO items (id, batch_id, line, url, status) VALUES (1, 1, 1, 'https://x/a.jpg', 'done')`).run();
    expect(migrate(db, 8)).toBe(8);
    expect(db.prepare('SELECT id, status, worker FROM items').all()).toEqual([{ id: 1, status: 'done', worker: null }]);
    db.prepare(`UPDATE items SET worker = 'gpu-box-1' WHERE id = 1`).run();
    expect(db.prepare('SELECT worker FROM items WHERE id = 1').get()).toEqual({ worker: 'gpu-box-1' });
  });
});
