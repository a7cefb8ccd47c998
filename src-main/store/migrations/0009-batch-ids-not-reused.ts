import type { Migration } from '../migrate';

// Why: `batches.id` is a plain INTEGER PRIMARY KEY, so SQLite gives a new batch max(id) + 1 and
// the id of a deleted newest batch came back for the next one. An id the user has seen (a script,
// an export's file name, the app's resume-on-start note, an open detail view) then named another
// batch. The highest id ever given is kept here, and new batches count on from it (BatchesRepo).
// A table of one row rather than rebuilding `batches` AUTOINCREMENT: items reference it, and a
// rebuild of the parent of millions of rows is slow and needs foreign keys off.
export const m0009: Migration = {
  version: 9,
  name: 'batch-ids-not-reused',
  up(db) {
    db.exec(`
      CREATE TABLE batch_id_high (last INTEGER NOT NULL);
      INSERT INTO batch_id_high (last) SELECT coalesce(max(id), 0) FROM batches;
      -- Every insert raises it, an explicit id included (imports, tests).
      CREATE TRIGGER batch_id_high_insert AFTER INSERT ON batches
      BEGIN
        UPDATE batch_id_high SET last = max(last, NEW.id);
      END;
    `);
  },
};
