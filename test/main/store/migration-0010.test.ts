import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 10: batch delete started', () => {
  it('leaves batches stored before it as not being deleted', () => {
    const db = createTestDb(9);
    db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (1, 'old', '{}', '{}', 't')`).run();
    expect(migrate(db, 10)).toBe(10);
    expect(db.prepare('SELECT id, name, delete_started FROM batches').all()).toEqual([{ id: 1, name: 'old', delete_started: 0 }]);
  });
});
