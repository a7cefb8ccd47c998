import type { BatchCounts, BatchProgress, BatchStatus } from '../shared/batch';

/** A change of one item's status, as the pipeline reports it. */
export type ItemTransition = 'claimed' | 'done' | 'failed' | 'requeued' | 'skipped';

const WINDOW_MS = 10_000;

/**
 * Live counts and rate of one batch, kept in memory from transitions (re-counting a million
 * items per tick would cost more than the work). Rate = items finished over the last 10 s.
 */
export class ProgressTracker {
  private readonly samples: Array<{ atMs: number; finished: number }> = [];
  private finished = 0;

  constructor(
    readonly batchId: number,
    private counts: BatchCounts,
    private status: BatchStatus,
    private readonly now: () => number = Date.now,
  ) {
    this.samples.push({ atMs: now(), finished: 0 });
  }

  apply(t: ItemTransition, n = 1): void {
    const c = this.counts;
    if (t === 'claimed') {
      c.queued -= n;
      c.running += n;
    } else if (t === 'requeued') {
      c.running -= n;
      c.queued += n;
    } else if (t === 'skipped') {
      c.queued -= n;
      c.skipped += n;
    } else {
      c.running -= n;
      c[t] += n;
      this.finished += n;
      this.sample();
    }
  }

  setStatus(status: BatchStatus): void {
    this.status = status;
  }

  /** Replaces counts after a bulk change done in SQL (reset, skip). */
  setCounts(counts: BatchCounts): void {
    this.counts = counts;
  }

  snapshot(): BatchProgress {
    const rate = this.rate();
    const remaining = this.counts.queued + this.counts.running;
    return {
      batchId: this.batchId,
      status: this.status,
      counts: { ...this.counts },
      imagesPerSecond: Math.round(rate * 100) / 100,
      etaSeconds: remaining === 0 ? 0 : rate > 0 ? Math.round(remaining / rate) : null,
    };
  }

  private sample(): void {
    const atMs = this.now();
    this.samples.push({ atMs, finished: this.finished });
    while (this.samples.length > 2 && this.samples[1]!.atMs < atMs - WINDOW_MS) this.samples.shift();
  }

  private rate(): number {
    const first = this.samples[0]!;
    const elapsedMs = this.now() - first.atMs;
    return elapsedMs > 0 ? ((this.finished - first.finished) * 1000) / elapsedMs : 0;
  }
}
