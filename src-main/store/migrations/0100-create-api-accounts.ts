import type { Migration } from '../migrate';

// Why: the local API server needs keys (stored hashed), integer credit balances, one row per
// charged transaction and persisted rate/volume counters, so limits and money survive restarts.
export const m0100: Migration = {
  version: 100,
  name: 'create-api-accounts',
  up(db) {
    db.exec(`
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        tier TEXT NOT NULL CHECK (tier IN ('free', 'basic', 'pro')),
        key_hash TEXT NOT NULL UNIQUE,
        key_prefix TEXT NOT NULL,
        balance_microcents INTEGER NOT NULL CHECK (balance_microcents >= 0),
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;

      CREATE TABLE api_transactions (
        id TEXT PRIMARY KEY,
        key_id INTEGER NOT NULL REFERENCES api_keys(id),
        operation TEXT NOT NULL CHECK (operation IN ('analyze', 'detect')),
        price_microcents INTEGER NOT NULL CHECK (price_microcents >= 0),
        status TEXT NOT NULL CHECK (status IN ('held', 'charged')),
        trace_id TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX api_transactions_key ON api_transactions(key_id, created_at_ms);
      CREATE INDEX api_transactions_held ON api_transactions(status, created_at_ms) WHERE status = 'held';

      CREATE TABLE api_usage (
        key_id INTEGER NOT NULL REFERENCES api_keys(id),
        period TEXT NOT NULL CHECK (period IN ('minute', 'day', 'month')),
        window_start_ms INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (key_id, period)
      ) STRICT;
    `);
  },
};
