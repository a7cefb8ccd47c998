import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 100 create-api-accounts', () => {
  it('creates keys, transactions and usage tables that refuse a negative balance', () => {
    const db = createTestDb(99);
    expect(migrate(db, 100)).toBe(100);
    expect(schemaVersion(db)).toBe(100);
    db.prepare(
      "INSERT INTO api_keys (name, tier, key_hash, key_prefix, balance_microcents, created_at) VALUES ('a', 'basic', 'h', 'p', 5, 'now')",
    ).run();
    expect(() => db.prepare('UPDATE api_keys SET balance_microcents = balance_microcents - 6').run()).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO api_keys (name, tier, key_hash, key_prefix, balance_microcents, created_at) VALUES ('b', 'gold', 'h2', 'p', 0, 'now')",
        )
        .run(),
    ).toThrow(/CHECK/);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'api_%' ORDER BY name").pluck().all();
    expect(tables).toEqual(['api_keys', 'api_transactions', 'api_usage']);
  });
});
