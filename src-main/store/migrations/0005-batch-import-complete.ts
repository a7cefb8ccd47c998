import type { Migration } from '../migrate';

// Why: a crash while a long list is being imported must not leave a batch that silently runs on
// half of its list; a batch is runnable only once its import has finished.
export const m0005: Migration = {
  version: 5,
  name: 'batch-import-complete',
  up(db) {
    // Batches stored before this column existed finished their import in one call: complete.
    db.exec('ALTER TABLE batches ADD COLUMN import_complete INTEGER NOT NULL DEFAULT 1');
  },
};
