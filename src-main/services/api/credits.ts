import { randomUUID } from 'node:crypto';
import { TransactionsRepo, type ChargedOperation, type Db } from '../../store';
import type { ApiTier } from '../../shared/api';
import { MIN_BALANCE_MICROCENTS, TIERS } from './tiers';

/** A price held on a balance until the call's outcome is known. */
export interface Hold {
  /** Transaction id (the analyze envelope's `transaction.Id`). */
  id: string;
  priceMicrocents: number;
}

/** How long a hold may stay open before a restart treats it as left by a crash (ms). */
const STALE_HOLD_MS = 10 * 60_000;

/**
 * Credits: hold → charge | release. The hold deducts the tier price in the same SQLite
 * transaction that checks the balance (≥ 0.09 ¢ and ≥ the price), so any number of concurrent
 * calls charge exactly once each and a balance never goes negative.
 */
export class Credits {
  private readonly repo: TransactionsRepo;

  constructor(
    db: Db,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.repo = new TransactionsRepo(db);
  }

  /** Holds the tier price, or returns undefined when the balance is too low. */
  hold(keyId: number, tier: ApiTier, operation: ChargedOperation, traceId: string): Hold | undefined {
    const priceMicrocents = TIERS[tier].priceMicrocents;
    const id = randomUUID();
    const r = this.repo.hold({
      id,
      keyId,
      operation,
      priceMicrocents,
      minBalanceMicrocents: MIN_BALANCE_MICROCENTS,
      traceId,
      nowMs: this.nowMs(),
    });
    return r.ok ? { id, priceMicrocents } : undefined;
  }

  /** The image was processed: the held price becomes a charged transaction. */
  charge(hold: Hold): void {
    this.repo.charge(hold.id);
  }

  /** The call was refused or failed before processing: refund. */
  release(hold: Hold): void {
    this.repo.release(hold.id);
  }

  /** Refunds holds older than ten minutes (left by a crash); call at server start. */
  releaseStale(): number {
    return this.repo.releaseStale(this.nowMs() - STALE_HOLD_MS);
  }

  chargedCount(keyId: number): number {
    return this.repo.chargedCount(keyId);
  }
}
