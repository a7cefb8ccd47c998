import type { Migration } from '../migrate';

// Why: facet counts of a whole batch (the results browser's default view) must not scan a
// million tag rows per request; triggers keep per-batch counts in step with every result write.
// Tags count from confidence 0.5, the browser's default threshold.
export const m0004: Migration = {
  version: 4,
  name: 'batch-facet-counts',
  up(db) {
    db.exec(`
      CREATE TABLE batch_facets (
        batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('tag', 'category', 'color', 'flag')),
        name TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (batch_id, kind, name)
      ) STRICT, WITHOUT ROWID;

      INSERT INTO batch_facets (batch_id, kind, name, count)
        SELECT batch_id, 'tag', name, count(*) FROM result_tags WHERE confidence >= 0.5 GROUP BY batch_id, name;
      INSERT INTO batch_facets (batch_id, kind, name, count)
        SELECT batch_id, 'category', name, count(*) FROM result_categories GROUP BY batch_id, name;
      INSERT INTO batch_facets (batch_id, kind, name, count)
        SELECT batch_id, 'color', name, count(*) FROM result_colors GROUP BY batch_id, name;
      INSERT INTO batch_facets (batch_id, kind, name, count)
        SELECT batch_id, 'flag', f.name, sum(CASE f.name
            WHEN 'withFaces' THEN r.face_count > 0 WHEN 'bw' THEN r.is_bw = 1
            WHEN 'clipArt' THEN r.clip_art_type >= 2 ELSE r.line_drawing_type = 1 END)
        FROM results r, (SELECT 'withFaces' AS name UNION ALL SELECT 'bw' UNION ALL SELECT 'clipArt' UNION ALL SELECT 'lineDrawing') f
        GROUP BY r.batch_id, f.name;
      DELETE FROM batch_facets WHERE count IS NULL OR count = 0;
    `);
    const bump = (table: string, kind: string, when = ''): string => `
      CREATE TRIGGER ${table}_facet_insert AFTER INSERT ON ${table} ${when ? `WHEN ${when.replaceAll('$', 'new')}` : ''} BEGIN
        INSERT INTO batch_facets (batch_id, kind, name, count) VALUES (new.batch_id, '${kind}', new.name, 1)
          ON CONFLICT (batch_id, kind, name) DO UPDATE SET count = count + 1;
      END;
      CREATE TRIGGER ${table}_facet_delete AFTER DELETE ON ${table} ${when ? `WHEN ${when.replaceAll('$', 'old')}` : ''} BEGIN
        UPDATE batch_facets SET count = count - 1 WHERE batch_id = old.batch_id AND kind = '${kind}' AND name = old.name;
      END;`;
    const flag = (name: string, cond: string): string => `
      CREATE TRIGGER results_facet_${name}_insert AFTER INSERT ON results WHEN ${cond.replaceAll('$', 'new')} BEGIN
        INSERT INTO batch_facets (batch_id, kind, name, count) VALUES (new.batch_id, 'flag', '${name}', 1)
          ON CONFLICT (batch_id, kind, name) DO UPDATE SET count = count + 1;
      END;
      CREATE TRIGGER results_facet_${name}_delete AFTER DELETE ON results WHEN ${cond.replaceAll('$', 'old')} BEGIN
        UPDATE batch_facets SET count = count - 1 WHERE batch_id = old.batch_id AND kind = 'flag' AND name = '${name}';
      END;`;
    db.exec(
      [
        bump('result_tags', 'tag', '$.confidence >= 0.5'),
        bump('result_categories', 'category'),
        bump('result_colors', 'color'),
        flag('withFaces', '$.face_count > 0'),
        flag('bw', '$.is_bw = 1'),
        flag('clipArt', '$.clip_art_type >= 2'),
        flag('lineDrawing', '$.line_drawing_type = 1'),
      ].join('\n'),
    );
  },
};
