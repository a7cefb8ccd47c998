import type { ApiTier } from '../shared/api';
import type { Db } from './db';

/** One stored API key: the hash of the key, never the key. */
export interface ApiKeyRecord {
  id: number;
  name: string;
  tier: ApiTier;
  keyHash: string;
  keyPrefix: string;
  balanceMicrocents: number;
  createdAt: string;
  revokedAt: string | null;
  transactions: number;
}

interface Row {
  id: number;
  name: string;
  tier: ApiTier;
  key_hash: string;
  key_prefix: string;
  balance_microcents: number;
  created_at: string;
  revoked_at: string | null;
  transactions: number;
}

const SELECT = `SELECT k.*, (SELECT count(*) FROM api_transactions t WHERE t.key_id = k.id AND t.status = 'charged') AS transactions
  FROM api_keys k`;

const toRecord = (r: Row): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  tier: r.tier,
  keyHash: r.key_hash,
  keyPrefix: r.key_prefix,
  balanceMicrocents: r.balance_microcents,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  transactions: r.transactions,
});

/** API keys and their balances (table `api_keys`). */
export class KeysRepo {
  private readonly insertStmt;
  private readonly byHashStmt;
  private readonly byIdStmt;
  private readonly listStmt;
  private readonly revokeStmt;
  private readonly creditStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare<[string, string, string, string, number, string]>(
      'INSERT INTO api_keys (name, tier, key_hash, key_prefix, balance_microcents, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.byHashStmt = db.prepare<[string], Row>(`${SELECT} WHERE k.key_hash = ?`);
    this.byIdStmt = db.prepare<[number], Row>(`${SELECT} WHERE k.id = ?`);
    this.listStmt = db.prepare<[], Row>(`${SELECT} ORDER BY k.id`);
    this.revokeStmt = db.prepare<[string, number]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
    this.creditStmt = db.prepare<[number, number]>('UPDATE api_keys SET balance_microcents = balance_microcents + ? WHERE id = ?');
  }

  insert(k: { name: string; tier: ApiTier; keyHash: string; keyPrefix: string; balanceMicrocents: number; createdAt: string }): number {
    const info = this.insertStmt.run(k.name, k.tier, k.keyHash, k.keyPrefix, k.balanceMicrocents, k.createdAt);
    return Number(info.lastInsertRowid);
  }

  findByHash(keyHash: string): ApiKeyRecord | undefined {
    const row = this.byHashStmt.get(keyHash);
    return row && toRecord(row);
  }

  get(id: number): ApiKeyRecord | undefined {
    const row = this.byIdStmt.get(id);
    return row && toRecord(row);
  }

  list(): ApiKeyRecord[] {
    return this.listStmt.all().map(toRecord);
  }

  /** Marks a key revoked; false when it does not exist or was already revoked. */
  revoke(id: number, at: string): boolean {
    return this.revokeStmt.run(at, id).changes === 1;
  }

  /** Adds (or, negative, removes) credit; the CHECK constraint keeps the balance ≥ 0. */
  credit(id: number, microcents: number): boolean {
    return this.creditStmt.run(microcents, id).changes === 1;
  }
}
