import type { Db } from './db';

/** Operations that are charged per transaction. */
export type ChargedOperation = 'analyze' | 'detect';

/** Outcome of trying to hold a price on a balance. */
export type HoldResult = { ok: true } | { ok: false; reason: 'insufficient-credit'; balanceMicrocents: number };

/**
 * Transactions (table `api_transactions`). A call first *holds* its price — deducted from the
 * balance in the same SQLite transaction that checks the balance, so concurrent calls can never
 * overspend — then either *charges* it (the image was processed) or *releases* it (refunded,
 * row deleted).
 */
export class TransactionsRepo {
  private readonly hold_;
  private readonly charge_;
  private readonly release_;
  private readonly releaseStale_;
  private readonly countCharged;

  constructor(private readonly db: Db) {
    const balance = db.prepare<[number], { balance_microcents: number }>('SELECT balance_microcents FROM api_keys WHERE id = ?');
    const debit = db.prepare<[number, number]>('UPDATE api_keys SET balance_microcents = balance_microcents - ? WHERE id = ?');
    const insert = db.prepare<[string, number, string, number, string, number]>(
      "INSERT INTO api_transactions (id, key_id, operation, price_microcents, status, trace_id, created_at_ms) VALUES (?, ?, ?, ?, 'held', ?, ?)",
    );
    this.hold_ = db.transaction(
      (t: {
        id: string;
        keyId: number;
        operation: ChargedOperation;
        priceMicrocents: number;
        minBalanceMicrocents: number;
        traceId: string;
        nowMs: number;
      }): HoldResult => {
        const current = balance.get(t.keyId)?.balance_microcents ?? 0;
        if (current < t.minBalanceMicrocents || current < t.priceMicrocents) {
          return { ok: false, reason: 'insufficient-credit', balanceMicrocents: current };
        }
        debit.run(t.priceMicrocents, t.keyId);
        insert.run(t.id, t.keyId, t.operation, t.priceMicrocents, t.traceId, t.nowMs);
        return { ok: true };
      },
    );
    this.charge_ = db.prepare<[string]>("UPDATE api_transactions SET status = 'charged' WHERE id = ? AND status = 'held'");
    const held = db.prepare<[string], { key_id: number; price_microcents: number }>(
      "SELECT key_id, price_microcents FROM api_transactions WHERE id = ? AND status = 'held'",
    );
    const del = db.prepare<[string]>('DELETE FROM api_transactions WHERE id = ?');
    const refund = db.prepare<[number, number]>('UPDATE api_keys SET balance_microcents = balance_microcents + ? WHERE id = ?');
    this.release_ = db.transaction((id: string): boolean => {
      const row = held.get(id);
      if (!row) return false;
      refund.run(row.price_microcents, row.key_id);
      del.run(id);
      return true;
    });
    const stale = db.prepare<[number], { id: string }>("SELECT id FROM api_transactions WHERE status = 'held' AND created_at_ms < ?");
    this.releaseStale_ = db.transaction((beforeMs: number): number => {
      let n = 0;
      for (const { id } of stale.all(beforeMs)) if (this.release_(id)) n++;
      return n;
    });
    this.countCharged = db.prepare<[number], { n: number }>(
      "SELECT count(*) AS n FROM api_transactions WHERE key_id = ? AND status = 'charged'",
    );
  }

  /** Deducts the price when the balance allows it (≥ minimum and ≥ price) and records a held row. */
  hold(t: {
    id: string;
    keyId: number;
    operation: ChargedOperation;
    priceMicrocents: number;
    minBalanceMicrocents: number;
    traceId: string;
    nowMs: number;
  }): HoldResult {
    return this.hold_.immediate(t);
  }

  /** Turns a held transaction into a charged one; false when it was not held. */
  charge(id: string): boolean {
    return this.charge_.run(id).changes === 1;
  }

  /** Refunds a held transaction and deletes it; false when it was not held. */
  release(id: string): boolean {
    return this.release_.immediate(id);
  }

  /** Refunds holds left by a crashed process (older than `beforeMs`); returns how many. */
  releaseStale(beforeMs: number): number {
    return this.releaseStale_.immediate(beforeMs);
  }

  /** Charged transactions of a key. */
  chargedCount(keyId: number): number {
    return this.countCharged.get(keyId)?.n ?? 0;
  }
}
