import type { Migration } from '../migrate';

// Why: a batch's items are deleted in chunks (a million-item delete must not hold the write lock
// for minutes), so a crash or `kill -9` mid-delete left a batch with part of its items that
// looked whole: listed as paused or done and resumable on what was left. The mark is set before
// the first chunk; such a batch never runs again, and a delete finishes it.
export const m0010: Migration = {
  version: 10,
  name: 'batch-delete-started',
  up(db) {
    db.exec('ALTER TABLE batches ADD COLUMN delete_started INTEGER NOT NULL DEFAULT 0');
  },
};
