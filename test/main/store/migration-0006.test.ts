import { describe, expect, it } from 'vitest';
import { migrate, ResultsRepo, type Db } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';
import { addResults, columnsFor } from './seed';

const changes = (db: Db, batchId: number): Array<{ seq: number; item_id: number }> =>
  db.prepare('SELECT seq, item_id FROM result_changes WHERE batch_id = ? ORDER BY seq').all(batchId) as Array<{
    seq: number;
    item_id: number;
  }>;

describe('migration 6: result change log', () => {
  it('stamps every stored result, then every result insert and delete, with a new sequence number', () => {
    const db = createTestDb(5);
    for (const id of [1, 2])
      db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (?, 'b', '{}', '{}', 't')`).run(id);
    const before = addResults(db, 1, 0, 5);
    addResults(db, 2, 0, 3);
    expect(migrate(db, 6)).toBe(6);
    expect(changes(db, 1).map((c) => c.item_id)).toEqual(before);
    expect(changes(db, 2)).toHaveLength(3);

    const last = Math.max(...changes(db, 1).map((c) => c.seq), ...changes(db, 2).map((c) => c.seq));
    const added = addResults(db, 1, 10, 2);
    const after = changes(db, 1).filter((c) => c.seq > last);
    expect(after.map((c) => c.item_id)).toEqual(added);

    // A replaced result (delete + insert in one transaction) moves its item to the end, once.
    const replaced = before[1]!;
    const swapped = new ResultsRepo(db).replace({
      itemId: replaced,
      batchId: 1,
      sha256: 'new',
      opKey: 'k',
      response: {},
      columns: columnsFor(99),
      thumbnail: null,
      analyzeMs: 0,
    });
    expect(swapped).toBe(true);
    expect(changes(db, 1).at(-1)!.item_id).toBe(replaced);
    expect(changes(db, 1)).toHaveLength(7);

    // A deleted item keeps a row (its result is gone) with a sequence number never seen before.
    const top = changes(db, 1).at(-1)!.seq;
    db.prepare('DELETE FROM items WHERE id = ?').run(before[0]);
    expect(changes(db, 1).at(-1)).toEqual({ seq: top + 1, item_id: before[0] });

    // Deleting a batch removes its rows (after the cascade wrote them); other batches keep theirs.
    db.prepare('DELETE FROM batches WHERE id = 1').run();
    expect(changes(db, 1)).toEqual([]);
    expect(changes(db, 2)).toHaveLength(3);
    // Sequence numbers are never reused, even after the highest rows went.
    const next = addResults(db, 2, 10, 1);
    expect(changes(db, 2).at(-1)!.item_id).toBe(next[0]);
    expect(changes(db, 2).at(-1)!.seq).toBeGreaterThan(top + 1);
  });
});
