import type { ItemStatus } from '../shared/batch';
import type { ErrorCode } from '../shared/errors';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';

/** One line of an input list, ready to store. Invalid lines carry their error and start `failed`. */
export interface NewItem {
  line: number;
  url: string;
  metadata: Record<string, string> | null;
  error: { code: ErrorCode; message: string } | null;
}

/** A queued item handed to the pipeline. */
export interface WorkItem {
  id: number;
  url: string;
  attempts: number;
}

/** Items of batches: import, claiming and status transitions. Times are epoch ms. */
export class ItemsRepo {
  private readonly insertStmt;
  private readonly nextStmt;
  private readonly fetchingStmt;
  private readonly analyzingStmt;
  private readonly failStmt;
  private readonly attemptStmt;
  private readonly requeueStmt;
  private readonly resetStmt;
  private readonly skipStmt;
  private readonly retryFailedStmt;
  private readonly deleteChunkStmt;
  private readonly statusStmt;
  private readonly urlStmt;
  private readonly reclaimStmt;
  private readonly workerStmts: () => { get: Statement<[number], { worker: string | null }>; set: Statement<[string, number]> };
  readonly insertMany: (batchId: number, rows: readonly NewItem[]) => number;

  constructor(db: Db) {
    // OR IGNORE on UNIQUE(batch_id, url) collapses duplicate URLs; the first line wins.
    this.insertStmt = db.prepare<[number, number, string, string, string | null, string | null, string | null]>(
      `INSERT OR IGNORE INTO items (batch_id, line, url, status, error_code, error_message, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.nextStmt = db.prepare<[number, number, number], WorkItem>(
      `SELECT id, url, attempts FROM items WHERE batch_id = ? AND status = 'queued' AND id > ? ORDER BY id LIMIT ?`,
    );
    this.fetchingStmt = db.prepare<[number, number]>(
      `UPDATE items SET status = 'fetching', attempts = attempts + 1, started_at = ? WHERE id = ? AND status = 'queued'`,
    );
    this.analyzingStmt = db.prepare<[string, number, number]>(
      `UPDATE items SET status = 'analyzing', sha256 = ?, fetch_ms = ? WHERE id = ? AND status = 'fetching'`,
    );
    this.failStmt = db.prepare<[string, string, number, number]>(
      `UPDATE items SET status = 'failed', error_code = ?, error_message = ?, finished_at = ? WHERE id = ? AND status IN ('queued', 'fetching', 'analyzing')`,
    );
    this.attemptStmt = db.prepare<[number]>('UPDATE items SET attempts = attempts + 1 WHERE id = ?');
    this.requeueStmt = db.prepare<[number]>(`UPDATE items SET status = 'queued' WHERE id = ? AND status IN ('fetching', 'analyzing')`);
    this.resetStmt = db.prepare<[number]>(`UPDATE items SET status = 'queued' WHERE batch_id = ? AND status IN ('fetching', 'analyzing')`);
    this.deleteChunkStmt = db.prepare<[number, number]>('DELETE FROM items WHERE id IN (SELECT id FROM items WHERE batch_id = ? LIMIT ?)');
    this.skipStmt = db.prepare<[number]>(`UPDATE items SET status = 'skipped' WHERE batch_id = ? AND status = 'queued'`);
    // attempts > 0: the item was tried and failed; a line the import refused (attempts 0) would fail the same way again.
    this.retryFailedStmt = db.prepare<[number]>(
      `UPDATE items SET status = 'queued', attempts = 0, error_code = NULL, error_message = NULL, started_at = NULL, finished_at = NULL
       WHERE batch_id = ? AND status = 'failed' AND attempts > 0`,
    );
    this.statusStmt = db.prepare<[number], { status: ItemStatus; sha256: string | null }>('SELECT status, sha256 FROM items WHERE id = ?');
    this.urlStmt = db.prepare<[number], { url: string }>('SELECT url FROM items WHERE id = ?');
    this.reclaimStmt = db.prepare<[number, number]>(
      `UPDATE items SET status = 'fetching', started_at = ? WHERE id = ? AND status = 'queued'`,
    );
    // Prepared on first use: the `worker` column comes with migration 8, and tests of older
    // migrations build this repo on older schemas.
    this.workerStmts = (() => {
      let stmts: { get: Statement<[number], { worker: string | null }>; set: Statement<[string, number]> } | undefined;
      return () =>
        (stmts ??= {
          get: db.prepare<[number], { worker: string | null }>('SELECT worker FROM items WHERE id = ?'),
          set: db.prepare<[string, number]>('UPDATE items SET worker = ? WHERE id = ?'),
        });
    })();
    // IMMEDIATE (see ResultsRepo): another process's write in between must not end it with SQLITE_BUSY_SNAPSHOT.
    const insertTx = db.transaction((batchId: number, rows: readonly NewItem[]): number => {
      let added = 0;
      for (const r of rows) {
        const status = r.error ? 'failed' : 'queued';
        const meta = r.metadata ? JSON.stringify(r.metadata) : null;
        added += this.insertStmt.run(batchId, r.line, r.url, status, r.error?.code ?? null, r.error?.message ?? null, meta).changes;
      }
      return added;
    });
    this.insertMany = (batchId, rows) => insertTx.immediate(batchId, rows);
  }

  /** Queued items after `afterId`, in id order (the pipeline's cursor). */
  nextQueued(batchId: number, afterId: number, limit: number): WorkItem[] {
    return this.nextStmt.all(batchId, afterId, limit);
  }

  /** queued → fetching, counting the attempt; false if the item was no longer queued. */
  markFetching(id: number, nowMs = Date.now()): boolean {
    return this.fetchingStmt.run(nowMs, id).changes > 0;
  }

  markAnalyzing(id: number, sha256: string, fetchMs: number): boolean {
    return this.analyzingStmt.run(sha256, fetchMs, id).changes > 0;
  }

  markFailed(id: number, code: string, message: string, nowMs = Date.now()): void {
    this.failStmt.run(code, message, nowMs, id);
  }

  /** Counts a retry within the current claim. */
  countAttempt(id: number): void {
    this.attemptStmt.run(id);
  }

  /** Puts an interrupted item back in the queue (pause, shutdown). */
  requeue(id: number): void {
    this.requeueStmt.run(id);
  }

  /**
   * Puts the batch's failed items that were tried back in the queue, their error cleared; lines
   * the import refused (never tried) stay failed. Returns how many.
   */
  requeueFailed(batchId: number): number {
    return this.retryFailedStmt.run(batchId).changes;
  }

  /** After a crash or pause: every item left mid-way goes back to `queued`. Returns how many. */
  resetInterrupted(batchId: number): number {
    return this.resetStmt.run(batchId).changes;
  }

  /** Deletes up to `limit` items of a batch with their results (cascade); returns how many. */
  deleteSome(batchId: number, limit: number): number {
    return this.deleteChunkStmt.run(batchId, limit).changes;
  }

  /** The item's status, or undefined when there is no such item. */
  status(id: number): ItemStatus | undefined {
    return this.statusStmt.get(id)?.status;
  }

  /** The item's URL. */
  url(id: number): string | undefined {
    return this.urlStmt.get(id)?.url;
  }

  /** The sha256 of the item's bytes, once known. */
  sha256(id: number): string | undefined {
    return this.statusStmt.get(id)?.sha256 ?? undefined;
  }

  /** The distributed worker that analysed the item, if any. */
  worker(id: number): string | undefined {
    return this.workerStmts().get.get(id)?.worker ?? undefined;
  }

  /**
   * queued → fetching without counting an attempt: a distributed result arrived for an item that
   * a coordinator restart had put back in the queue. False when the item was not queued.
   */
  reclaim(id: number, nowMs = Date.now()): boolean {
    return this.reclaimStmt.run(nowMs, id).changes > 0;
  }

  /** Records which distributed worker analysed the item. */
  setWorker(id: number, name: string): void {
    this.workerStmts().set.run(name, id);
  }

  /** On cancel: items never started become `skipped`. */
  skipQueued(batchId: number): number {
    return this.skipStmt.run(batchId).changes;
  }
}
