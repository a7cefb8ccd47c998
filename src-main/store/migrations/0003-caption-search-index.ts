import type { Migration } from '../migrate';

// Why: caption text search ("contains", any case) must not scan every caption of a large batch;
// an FTS5 trigram index answers substring queries of ≥ 3 characters (see docs/benchmarks.md).
// Contentless: the text already lives in results.caption; rowid = results.item_id.
export const m0003: Migration = {
  version: 3,
  name: 'caption-search-index',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE result_captions USING fts5(caption, content='', contentless_delete=1, tokenize='trigram');
      INSERT INTO result_captions(rowid, caption) SELECT item_id, caption FROM results WHERE caption IS NOT NULL;
      CREATE TRIGGER results_caption_insert AFTER INSERT ON results WHEN new.caption IS NOT NULL BEGIN
        INSERT INTO result_captions(rowid, caption) VALUES (new.item_id, new.caption);
      END;
      CREATE TRIGGER results_caption_delete AFTER DELETE ON results WHEN old.caption IS NOT NULL BEGIN
        DELETE FROM result_captions WHERE rowid = old.item_id;
      END;
    `);
  },
};
