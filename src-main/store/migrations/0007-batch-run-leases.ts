import type { Migration } from '../migrate';

// Why: one batch must be run by one process at a time (a second resume would requeue the first
// one's items in flight). The running process holds a lease row and renews it; a crashed holder
// is recognised by its stale heartbeat or, on the same host, by its pid being gone.
export const m0007: Migration = {
  version: 7,
  name: 'batch-run-leases',
  up(db) {
    db.exec(`
      CREATE TABLE batch_leases (
        batch_id INTEGER PRIMARY KEY REFERENCES batches(id) ON DELETE CASCADE,
        token TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        started_at TEXT NOT NULL,
        heartbeat_ms INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
