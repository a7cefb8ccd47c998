import type { Migration } from '../migrate';

// Why: batches and their items (one per unique URL) with persisted per-item status, so a batch
// survives a crash and resumes where it stopped.
export const m0001: Migration = {
  version: 1,
  name: 'create-batches-and-items',
  up(db) {
    db.exec(`
      CREATE TABLE batches (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'paused', 'done', 'cancelled')),
        operation TEXT NOT NULL,
        backend TEXT NOT NULL,
        download_concurrency INTEGER,
        analysis_concurrency INTEGER,
        created_at TEXT NOT NULL,
        finished_at TEXT
      ) STRICT;

      CREATE TABLE items (
        id INTEGER PRIMARY KEY,
        batch_id INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
        line INTEGER NOT NULL,
        url TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'queued'
          CHECK (status IN ('queued', 'fetching', 'analyzing', 'done', 'failed', 'skipped')),
        attempts INTEGER NOT NULL DEFAULT 0,
        error_code TEXT,
        error_message TEXT,
        sha256 TEXT,
        metadata TEXT,
        reused_from INTEGER,
        started_at INTEGER,
        finished_at INTEGER,
        fetch_ms INTEGER,
        analyze_ms INTEGER
      ) STRICT;

      -- Collapses duplicate URLs on import (INSERT OR IGNORE) and serves URL lookups.
      CREATE UNIQUE INDEX items_batch_url ON items(batch_id, url);
      -- Claiming queued work, counts per status and the status filter; rowid order comes free.
      CREATE INDEX items_batch_status ON items(batch_id, status);
    `);
  },
};
