import { describe, expect, it } from 'vitest';
import { migrate, type Db } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';
import { addResults } from './seed';

const counts = (db: Db): unknown[] =>
  db.prepare('SELECT batch_id, kind, name, count FROM batch_facets WHERE count > 0 ORDER BY 1, 2, 3').all();

/** The same counts computed from the result tables. */
const live = (db: Db): unknown[] =>
  db
    .prepare(
      `SELECT * FROM (
        SELECT batch_id, 'category' AS kind, name, count(*) AS count FROM result_categories GROUP BY batch_id, name
        UNION ALL SELECT batch_id, 'color', name, count(*) FROM result_colors GROUP BY batch_id, name
        UNION ALL SELECT batch_id, 'flag', 'bw', sum(is_bw = 1) FROM results GROUP BY batch_id
        UNION ALL SELECT batch_id, 'flag', 'clipArt', sum(clip_art_type >= 2) FROM results GROUP BY batch_id
        UNION ALL SELECT batch_id, 'flag', 'lineDrawing', sum(line_drawing_type = 1) FROM results GROUP BY batch_id
        UNION ALL SELECT batch_id, 'flag', 'withFaces', sum(face_count > 0) FROM results GROUP BY batch_id
        UNION ALL SELECT batch_id, 'tag', name, count(*) FROM result_tags WHERE confidence >= 0.5 GROUP BY batch_id, name
      ) WHERE count > 0 ORDER BY 1, 2, 3`,
    )
    .all();

describe('migration 4: batch facet counts', () => {
  it('backfills counts from stored results, then triggers keep them equal to the result tables', () => {
    const db = createTestDb(3);
    for (const id of [1, 2])
      db.prepare(`INSERT INTO batches (id, name, operation, backend, created_at) VALUES (?, 'b', '{}', '{}', 't')`).run(id);
    addResults(db, 1, 0, 40);
    addResults(db, 2, 0, 7);
    expect(migrate(db, 4)).toBe(4);
    expect(counts(db)).toEqual(live(db));
    expect(counts(db).length).toBeGreaterThan(10);

    addResults(db, 1, 100, 25);
    expect(counts(db)).toEqual(live(db));
    db.prepare('DELETE FROM items WHERE batch_id = 1 AND id % 3 = 0').run();
    expect(counts(db)).toEqual(live(db));
    db.prepare('DELETE FROM batches WHERE id = 2').run();
    expect(counts(db)).toEqual(live(db));
    expect(db.prepare('SELECT count(*) AS n FROM batch_facets WHERE batch_id = 2').get()).toEqual({ n: 0 });
  });
});
