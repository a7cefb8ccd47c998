import type { Migration } from '../migrate';

// Why: the in-memory facet index (store/facet-index.ts) keeps per-batch copies of result tags,
// categories, colours and flags. It must learn cheaply which results were added, replaced or
// deleted since it last looked, whoever wrote them (this process, a worker, another process).
// Triggers stamp each item's latest result change with an ever-increasing sequence number
// (AUTOINCREMENT: never reused, so "seq > last seen" is exact); one row per item, so the table
// stays as small as the item list. Rows of a deleted batch go with it.
export const m0006: Migration = {
  version: 6,
  name: 'result-change-log',
  up(db) {
    db.exec(`
      CREATE TABLE result_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        item_id INTEGER NOT NULL UNIQUE,
        batch_id INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX result_changes_batch_seq ON result_changes(batch_id, seq, item_id);

      INSERT INTO result_changes (item_id, batch_id) SELECT item_id, batch_id FROM results ORDER BY item_id;

      CREATE TRIGGER results_change_insert AFTER INSERT ON results BEGIN
        DELETE FROM result_changes WHERE item_id = new.item_id;
        INSERT INTO result_changes (item_id, batch_id) VALUES (new.item_id, new.batch_id);
      END;
      CREATE TRIGGER results_change_delete AFTER DELETE ON results BEGIN
        DELETE FROM result_changes WHERE item_id = old.item_id;
        INSERT INTO result_changes (item_id, batch_id) VALUES (old.item_id, old.batch_id);
      END;
      CREATE TRIGGER batches_result_changes_delete AFTER DELETE ON batches BEGIN
        DELETE FROM result_changes WHERE batch_id = old.id;
      END;
    `);
  },
};
