import type { Migration } from '../migrate';

// Why: a distributed batch keeps state in Redis while it runs or is paused (its announcement,
// its control key, the content hashes its workers have seen, its results queue). Only a run that
// ended with Redis reachable removed it, so a batch cancelled or deleted while paused, or while
// Redis was away, left that state in Redis for good: up to ~100 bytes per image (the seen hash)
// and a results queue per batch, growing batch after batch. An ended batch's queue key is noted
// here until its Redis state has been removed: at once when Redis answers, else by the next
// distributed run on the same Redis (services/distributed/batch-cleanup.ts).
export const m0011: Migration = {
  version: 11,
  name: 'redis-leftovers',
  up(db) {
    db.exec(`
      CREATE TABLE redis_leftovers (
        queue_key TEXT PRIMARY KEY,
        -- The Redis URL in its stored form (no password), as the batch's backend holds it.
        redis_url TEXT NOT NULL,
        noted_at TEXT NOT NULL
      );
    `);
  },
};
