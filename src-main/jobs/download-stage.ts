import { EventEmitter, once } from 'node:events';

/**
 * Items of one run waiting for unavailable image hosts (jobs/host-breaker.ts) at once, beyond
 * which the feeder stops claiming items too. They hold no pixels: a waiting item is its row and a
 * few closures (well under 1 KB), so 10 000 cost a few MB, and a list that is mostly one
 * unavailable host does not pull millions of rows into memory.
 */
export const MAX_WAITING_FOR_HOSTS = 10_000;

/**
 * The items of a run between their claim and the hand-over of their image to the analyses: being
 * fetched, waiting out a retry back-off, or waiting for their host. The feeder claims another
 * item while fewer than its bound are busy; items waiting for an unavailable host are counted
 * apart, so a host that is down does not stall the other hosts' images.
 */
export class DownloadStage {
  private readonly items = new Set<Promise<void>>();
  private waitingForHosts = 0;
  private readonly changes = new EventEmitter();

  /** Counts `item` (a promise that never rejects) until it settles. */
  track(item: Promise<void>): void {
    this.items.add(item);
    void item
      .finally(() => {
        this.items.delete(item);
        this.changed();
      })
      .catch(() => {});
  }

  /** An item of the stage starts (true) or stops (false) waiting for its host. */
  hostWait(waiting: boolean): void {
    this.waitingForHosts += waiting ? 1 : -1;
    this.changed();
  }

  /** Items of the stage that are not waiting for their host. */
  get busy(): number {
    return this.items.size - this.waitingForHosts;
  }

  /** Resolves when fewer than `limit` items are busy and the waiting ones are within bounds; rejects when `signal` aborts. */
  async roomFor(limit: number, signal: AbortSignal): Promise<void> {
    while (this.busy >= limit || this.waitingForHosts >= MAX_WAITING_FOR_HOSTS) await once(this.changes, 'change', { signal });
  }

  /** Resolves once every tracked item has settled. */
  async settled(): Promise<void> {
    while (this.items.size > 0) await Promise.all(this.items);
  }

  private changed(): void {
    this.changes.emit('change');
  }
}
