import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 7: batch run leases', () => {
  it('adds an empty lease table whose rows go with their batch', () => {
    const db = createTestDb(6);
    db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (1, 'old', '{}', '{}', 't')`).run();
    expect(migrate(db, 7)).toBe(7);
    expect(db.prepare('SELECT count(*) AS n FROM batch_leases').get()).toEqual({ n: 0 });
    db.prepare(`INSERT INTO batch_leases VALUES (1, 'tok', 42, 'host', 't', 0)`).run();
    db.prepare('DELETE FROM batches WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM batch_leases').get()).toEqual({ n: 0 });
  });
});
