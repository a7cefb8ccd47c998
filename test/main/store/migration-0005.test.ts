import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 5: batch import complete', () => {
  it('marks batches stored before it as fully imported; new rows default to complete too', () => {
    const db = createTestDb(4);
    db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (1, 'old', '{}', '{}', 't')`).run();
    expect(migrate(db, 5)).toBe(5);
    expect(db.prepare('SELECT id, name, import_complete FROM batches').all()).toEqual([{ id: 1, name: 'old', import_complete: 1 }]);
    db.prepare(
      `INSERT INTO batches (id, name, operation, backend, created_at, import_complete) VALUES (2, 'new', '{}', '{}', 't', 0)`,
    ).run();
    expect(db.prepare('SELECT import_complete FROM batches WHERE id = 2').get()).toEqual({ import_complete: 0 });
  });
});
