import type { Backend, BatchCounts, BatchOperation, BatchStatus, BatchSummary } from '../shared/batch';
import type { Db } from './db';

/** A new batch's stored settings. */
export interface NewBatch {
  name: string;
  operation: BatchOperation;
  backend: Backend;
  downloadConcurrency?: number;
  analysisConcurrency?: number;
}

/** A batch row with its run settings (concurrency), beyond the summary the UI shows. */
export interface BatchRecord extends BatchSummary {
  downloadConcurrency: number | null;
  analysisConcurrency: number | null;
  /** False while (or if a crash stopped) streaming its list in: such a batch must not run. */
  importComplete: boolean;
  /** True once a delete has begun: its items go in chunks, and what a crash leaves must not run. */
  deleteStarted: boolean;
}

interface BatchRow {
  id: number;
  name: string;
  status: BatchStatus;
  operation: string;
  backend: string;
  download_concurrency: number | null;
  analysis_concurrency: number | null;
  created_at: string;
  finished_at: string | null;
  import_complete: number;
  delete_started: number;
}

/** Batches and their per-status item counts. */
export class BatchesRepo {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly listStmt;
  private readonly countsStmt;
  private readonly statusStmt;
  private readonly finishStmt;
  private readonly deleteStmt;
  private readonly importedStmt;
  private readonly statusOnlyStmt;
  private readonly highStmt;
  private readonly deleteStartedStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare<[string, string, string, number | null, number | null, string]>(
      // The id counts on from the highest ever given (migration 9): a deleted batch's id is not reused.
      `INSERT INTO batches (id, name, operation, backend, download_concurrency, analysis_concurrency, created_at, import_complete)
       VALUES ((SELECT last + 1 FROM batch_id_high), ?, ?, ?, ?, ?, ?, 0)`,
    );
    this.getStmt = db.prepare<[number], BatchRow>('SELECT * FROM batches WHERE id = ?');
    this.listStmt = db.prepare<[], BatchRow>('SELECT * FROM batches ORDER BY id DESC');
    this.countsStmt = db.prepare<[number], { status: string; n: number }>(
      'SELECT status, count(*) AS n FROM items WHERE batch_id = ? GROUP BY status',
    );
    this.statusStmt = db.prepare<[BatchStatus, number]>('UPDATE batches SET status = ?, finished_at = NULL WHERE id = ?');
    this.finishStmt = db.prepare<[BatchStatus, string, number]>('UPDATE batches SET status = ?, finished_at = ? WHERE id = ?');
    this.deleteStmt = db.prepare<[number]>('DELETE FROM batches WHERE id = ?');
    this.importedStmt = db.prepare<[number]>('UPDATE batches SET import_complete = 1 WHERE id = ?');
    this.statusOnlyStmt = db.prepare<[number], { status: BatchStatus }>('SELECT status FROM batches WHERE id = ?');
    this.highStmt = db.prepare<[], { last: number }>('SELECT last FROM batch_id_high');
    this.deleteStartedStmt = db.prepare<[number]>('UPDATE batches SET delete_started = 1 WHERE id = ?');
  }

  insert(batch: NewBatch, createdAt = new Date()): number {
    const info = this.insertStmt.run(
      batch.name,
      JSON.stringify(batch.operation),
      JSON.stringify(batch.backend),
      batch.downloadConcurrency ?? null,
      batch.analysisConcurrency ?? null,
      createdAt.toISOString(),
    );
    return Number(info.lastInsertRowid);
  }

  get(id: number): BatchRecord | undefined {
    const row = this.getStmt.get(id);
    return row && this.toRecord(row);
  }

  list(): BatchRecord[] {
    return this.listStmt.all().map((row) => this.toRecord(row));
  }

  counts(id: number): BatchCounts {
    const counts: BatchCounts = { total: 0, queued: 0, running: 0, done: 0, failed: 0, skipped: 0 };
    for (const { status, n } of this.countsStmt.all(id)) {
      counts.total += n;
      if (status === 'fetching' || status === 'analyzing') counts.running += n;
      else if (status === 'queued' || status === 'done' || status === 'failed' || status === 'skipped') counts[status] += n;
    }
    return counts;
  }

  /** The stored status alone (cheap: no item counts), e.g. to notice a cancel from another process. */
  status(id: number): BatchStatus | undefined {
    return this.statusOnlyStmt.get(id)?.status;
  }

  /** Whether `id` was ever given to a batch (migration 9 keeps the highest): a missing one was then deleted. */
  wasGiven(id: number): boolean {
    return id >= 1 && id <= (this.highStmt.get()?.last ?? 0);
  }

  setStatus(id: number, status: BatchStatus): void {
    this.statusStmt.run(status, id);
  }

  /** Records a terminal status (done, cancelled) with its time. */
  finish(id: number, status: 'done' | 'cancelled', at = new Date()): void {
    this.finishStmt.run(status, at.toISOString(), id);
  }

  /** Marks the batch's list as fully imported (it may run from now on). */
  markImported(id: number): void {
    this.importedStmt.run(id);
  }

  /** Marks the batch as being deleted, before its first items go: it must never run again. */
  markDeleteStarted(id: number): void {
    this.deleteStartedStmt.run(id);
  }

  /** Deletes the batch; items, results and thumbnails go with it (ON DELETE CASCADE). */
  delete(id: number): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  private toRecord(row: BatchRow): BatchRecord {
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      operation: JSON.parse(row.operation) as BatchOperation,
      backend: JSON.parse(row.backend) as Backend,
      counts: this.counts(row.id),
      createdAt: row.created_at,
      finishedAt: row.finished_at,
      downloadConcurrency: row.download_concurrency,
      analysisConcurrency: row.analysis_concurrency,
      importComplete: row.import_complete === 1,
      deleteStarted: row.delete_started === 1,
    };
  }
}
