import type { Db } from './db';

/** Who runs a batch: one row per running batch. Times: `startedAt` ISO, `heartbeatMs` epoch ms. */
export interface BatchLease {
  batchId: number;
  /** Random id of one run, so a holder only renews or releases its own lease. */
  token: string;
  pid: number;
  host: string;
  startedAt: string;
  heartbeatMs: number;
}

interface LeaseRow {
  batch_id: number;
  token: string;
  pid: number;
  host: string;
  started_at: string;
  heartbeat_ms: number;
}

const toLease = (r: LeaseRow): BatchLease => ({
  batchId: r.batch_id,
  token: r.token,
  pid: r.pid,
  host: r.host,
  startedAt: r.started_at,
  heartbeatMs: r.heartbeat_ms,
});

/** The run leases of batches (migration 7). */
export class LeasesRepo {
  private readonly getStmt;
  private readonly upsertStmt;
  private readonly renewStmt;
  private readonly releaseStmt;
  /**
   * Takes the lease of `lease.batchId` unless `isLive(current holder)` says another run holds it;
   * returns undefined when taken, else the live holder. One IMMEDIATE transaction: two processes
   * cannot both read "free" and both take it.
   */
  readonly acquire: (lease: BatchLease, isLive: (holder: BatchLease) => boolean) => BatchLease | undefined;

  constructor(db: Db) {
    this.getStmt = db.prepare<[number], LeaseRow>('SELECT * FROM batch_leases WHERE batch_id = ?');
    this.upsertStmt = db.prepare<[number, string, number, string, string, number]>(
      `INSERT OR REPLACE INTO batch_leases (batch_id, token, pid, host, started_at, heartbeat_ms) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.renewStmt = db.prepare<[number, number, string]>('UPDATE batch_leases SET heartbeat_ms = ? WHERE batch_id = ? AND token = ?');
    this.releaseStmt = db.prepare<[number, string]>('DELETE FROM batch_leases WHERE batch_id = ? AND token = ?');
    const take = db.transaction((lease: BatchLease, isLive: (holder: BatchLease) => boolean): BatchLease | undefined => {
      const current = this.holder(lease.batchId);
      if (current && current.token !== lease.token && isLive(current)) return current;
      this.upsertStmt.run(lease.batchId, lease.token, lease.pid, lease.host, lease.startedAt, lease.heartbeatMs);
      return undefined;
    });
    this.acquire = (lease, isLive) => take.immediate(lease, isLive);
  }

  /** The current lease row of a batch, live or not. */
  holder(batchId: number): BatchLease | undefined {
    const row = this.getStmt.get(batchId);
    return row && toLease(row);
  }

  /** Renews the heartbeat; false when the lease is no longer this run's (taken over). */
  renew(batchId: number, token: string, nowMs = Date.now()): boolean {
    return this.renewStmt.run(nowMs, batchId, token).changes > 0;
  }

  /** Gives the lease up (only this run's own). */
  release(batchId: number, token: string): void {
    this.releaseStmt.run(batchId, token);
  }
}
