import { storedResult, type ItemTransition } from '../../jobs';
import type { Db, ItemsRepo, ResultsRepo } from '../../store';
import type { ResultJob } from './protocol';

/** How a delivered result changed the batch. */
export type ResultEffect = 'done' | 'failed' | 'returned' | 'waiting' | 'ignored';

/** What the writer needs: the repos, and whom to tell about each status change. */
export interface ResultWriterDeps {
  db: Db;
  items: ItemsRepo;
  results: ResultsRepo;
  batchId: number;
  opKey: string;
  onTransition: (t: ItemTransition, itemId: number) => void;
}

/**
 * Applies workers' results to SQLite, exactly once per item: each write happens in one
 * transaction and only while the item is unfinished (queued after a coordinator restart, or in
 * flight), so a result delivered twice, or late after a cancel, changes nothing.
 * Duplicates wait for the item that first claimed the same bytes, then copy its result.
 */
export class ResultWriter {
  /** Source item id → items waiting to copy its result. */
  private readonly waiting = new Map<number, number[]>();
  private readonly applyTx;

  constructor(private readonly d: ResultWriterDeps) {
    this.applyTx = d.db.transaction((r: ResultJob): ResultEffect => this.applyNow(r));
  }

  /** Writes one result; returns what it did. */
  apply(r: ResultJob): ResultEffect {
    const wasQueued = this.d.items.status(r.itemId) === 'queued';
    // IMMEDIATE: another process writing the same database waits on the lock, never ends it busy.
    const effect = this.applyTx.immediate(r);
    if (effect === 'ignored' || effect === 'waiting') return effect;
    if (wasQueued && effect !== 'returned') this.d.onTransition('claimed', r.itemId);
    if (effect === 'done' || effect === 'failed') this.d.onTransition(effect, r.itemId);
    else if (!wasQueued) this.d.onTransition('requeued', r.itemId);
    if (effect === 'done' || effect === 'failed') this.settleWaiting(r.itemId);
    return effect;
  }

  /** True while the item waits for the item that first claimed its bytes. */
  isParked(itemId: number): boolean {
    for (const list of this.waiting.values()) if (list.includes(itemId)) return true;
    return false;
  }

  /** Items parked behind a source that has not finished yet. */
  get parked(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  private applyNow(r: ResultJob): ResultEffect {
    const { items, results } = this.d;
    const status = items.status(r.itemId);
    if (status !== 'queued' && status !== 'fetching' && status !== 'analyzing') return 'ignored';
    if (r.kind === 'returned') {
      items.requeue(r.itemId);
      return status === 'queued' ? 'ignored' : 'returned';
    }
    items.reclaim(r.itemId);
    if (r.kind === 'failed') {
      items.markFailed(r.itemId, r.code, r.message);
    } else if (r.kind === 'done') {
      const image = {
        sha256: r.image.sha256,
        metadata: r.image.metadata as never,
        thumbnail: { ...r.image.thumbnail, data: Buffer.from(r.image.thumbnail.base64, 'base64') },
      };
      const stored = storedResult({
        itemId: r.itemId,
        batchId: this.d.batchId,
        opKey: this.d.opKey,
        image,
        processed: r.processed,
        analyzeMs: r.analyzeMs,
      });
      if (!results.complete(stored)) return 'ignored';
    } else {
      const sourceStatus = items.status(r.of);
      if (sourceStatus === 'done') {
        if (!results.reuse(r.of, r.itemId, this.d.batchId, r.sha256)) return 'ignored';
      } else if (sourceStatus === 'failed' || sourceStatus === 'skipped' || sourceStatus === undefined) {
        items.markFailed(r.itemId, 'internal', `Same image as item ${r.of}, which did not finish.`);
        return 'failed';
      } else {
        const list = this.waiting.get(r.of) ?? [];
        if (!list.includes(r.itemId)) list.push(r.itemId);
        this.waiting.set(r.of, list);
        return 'waiting';
      }
    }
    items.setWorker(r.itemId, r.worker);
    return r.kind === 'failed' ? 'failed' : 'done';
  }

  private settleWaiting(sourceId: number): void {
    const list = this.waiting.get(sourceId);
    if (!list) return;
    this.waiting.delete(sourceId);
    const sha256 = this.d.items.sha256(sourceId) ?? '';
    for (const itemId of list)
      this.apply({ itemId, worker: this.d.items.worker(sourceId) ?? '', fetchMs: 0, kind: 'duplicate', sha256, of: sourceId });
  }
}
