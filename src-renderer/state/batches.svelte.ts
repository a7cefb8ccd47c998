import type { BatchProgress, BatchSummary } from '../../src-main/shared';
import { invoke, onEvent } from '../api/client';
import { liveTransport, messageOf, type TransportSource } from './transport';

export type BatchAction = 'pause' | 'resume' | 'retry-failed' | 'cancel' | 'delete';

/** How an action reads in "Could not … this batch". */
const ACTION_WORDS: Record<BatchAction, string> = {
  pause: 'pause',
  resume: 'resume',
  'retry-failed': 'retry the failed items of',
  cancel: 'cancel',
  delete: 'delete',
};

/** The batch list with live progress (rates, ETA) and the per-batch controls. */
export class BatchesState {
  batches = $state<BatchSummary[]>([]);
  progress = $state<Record<number, BatchProgress>>({});
  loaded = $state(false);
  error = $state<string | null>(null);
  /** Errors of a single batch's action, shown on its row. */
  rowErrors = $state<Record<number, string>>({});
  busy = $state<Record<number, boolean>>({});
  /**
   * Progress events applied per batch. An action's answer or a list reload travels on another
   * connection than the events, so it may arrive after newer events (a quick run's last progress):
   * a row whose batch had events meanwhile keeps their status and counts instead of the older ones.
   */
  private eventsSeen: Record<number, number> = {};
  /**
   * Reloads issued, and the latest one whose answer is shown. Two reloads (two `batches:changed`
   * in a row) may be answered in either order: an answer older than the one shown is dropped, so
   * a batch created or deleted in between does not vanish or come back.
   */
  private reloadsIssued = 0;
  private reloadShown = 0;
  /** Batches deleted here, with the number of reloads issued by then: those reloads may still list them. */
  private deletedBy: Record<number, number> = {};

  constructor(private readonly transport: TransportSource = liveTransport) {}

  async load(): Promise<void> {
    const reload = ++this.reloadsIssued;
    const seen = { ...this.eventsSeen };
    let answer: [BatchSummary[], BatchProgress[]];
    try {
      answer = await Promise.all([
        invoke('batches:list', undefined, this.transport()),
        invoke('batches:progress', undefined, this.transport()),
      ]);
    } catch (err) {
      if (reload > this.reloadShown) this.error = `Could not load the batches: ${messageOf(err)}`;
      return;
    } finally {
      this.loaded = true;
    }
    if (reload < this.reloadShown) return;
    this.reloadShown = reload;
    const [list, progress] = answer;
    const deletedSince = (id: number): boolean => reload <= (this.deletedBy[id] ?? 0);
    this.batches = list.filter((b) => !deletedSince(b.id)).map((b) => this.newerOf(b, seen[b.id] ?? 0));
    for (const p of progress) if ((this.eventsSeen[p.batchId] ?? 0) === (seen[p.batchId] ?? 0)) this.progress[p.batchId] = p;
    this.error = null;
  }

  /** Applies a progress event to the row it belongs to. */
  applyProgress(p: BatchProgress): void {
    this.eventsSeen[p.batchId] = (this.eventsSeen[p.batchId] ?? 0) + 1;
    this.progress[p.batchId] = p;
    const row = this.batches.find((b) => b.id === p.batchId);
    if (row) {
      row.status = p.status;
      row.counts = p.counts;
    }
  }

  async act(batchId: number, action: BatchAction): Promise<void> {
    this.busy[batchId] = true;
    delete this.rowErrors[batchId];
    try {
      if (action === 'delete') {
        await invoke('batches:delete', { batchId }, this.transport());
        this.deletedBy[batchId] = this.reloadsIssued;
        this.batches = this.batches.filter((b) => b.id !== batchId);
      } else {
        const seen = this.eventsSeen[batchId] ?? 0;
        const updated = await invoke(`batches:${action}`, { batchId }, this.transport());
        this.batches = this.batches.map((b) => (b.id === batchId ? this.newerOf(updated, seen) : b));
      }
    } catch (err) {
      this.rowErrors[batchId] = `Could not ${ACTION_WORDS[action]} this batch: ${messageOf(err)}`;
    } finally {
      this.busy[batchId] = false;
    }
  }

  /** `summary`, with the last progress event's status and counts when events came after `seenBefore`. */
  private newerOf(summary: BatchSummary, seenBefore: number): BatchSummary {
    const latest = this.progress[summary.id];
    if (!latest || (this.eventsSeen[summary.id] ?? 0) === seenBefore) return summary;
    return { ...summary, status: latest.status, counts: latest.counts };
  }

  /** Follows progress and list changes; returns the unsubscribe function. */
  subscribe(): () => void {
    const t = this.transport();
    const offs = [onEvent('batches:progress', (p) => this.applyProgress(p), t), onEvent('batches:changed', () => void this.load(), t)];
    return () => offs.forEach((off) => off());
  }
}

export const batchesState = new BatchesState();
