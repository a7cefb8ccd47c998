import type { Facets, ResultFilter, ResultItem, ResultSort } from '../../src-main/shared';
import { ApiError, invoke, onEvent } from '../api/client';
import { liveTransport, messageOf, type TransportSource } from './transport';

const STORAGE_KEY = 'picscan-results-filter';

/** Items fetched per request; the grid asks for the pages around what is on screen. */
export const PAGE_SIZE = 120;

/** Drops empty fields so the filter sent (and compared) is canonical. */
export function cleanFilter(filter: ResultFilter): ResultFilter {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filter)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as ResultFilter;
}

/**
 * The results browser: the filter, a sparse page cache for the virtualised grid, and the facet
 * counts of the current filter. A generation number drops answers to superseded filters.
 */
export class ResultsState {
  filter = $state<ResultFilter>({});
  sort = $state<ResultSort>('id');
  total = $state(0);
  facets = $state.raw<Facets | null>(null);
  /** Loaded pages by page index; replaced (not mutated) so the grid re-renders. */
  pages = $state.raw<Record<number, ResultItem[]>>({});
  loading = $state(false);
  error = $state<string | null>(null);
  /**
   * Set when the batch the filter names no longer exists (deleted here, in another window or by
   * another process): the view says so instead of showing an empty batch as "0 results".
   */
  gone = $state<string | null>(null);
  /** Bumps when a new filter's first page is shown (tests and the benchmark wait on it). */
  shown = $state(0);
  /** Bumps when a new filter's facet counts are shown. */
  counted = $state(0);

  private generation = 0;
  private inflight: Record<string, true> = {};

  constructor(
    private readonly transport: TransportSource = liveTransport,
    private readonly storage: Storage | null = typeof sessionStorage === 'undefined' ? null : sessionStorage,
  ) {
    // A reload of the tab shows the same filter and order.
    try {
      const saved = JSON.parse(this.storage?.getItem(STORAGE_KEY) ?? 'null') as { filter?: ResultFilter; sort?: ResultSort } | null;
      if (saved?.filter) this.filter = saved.filter;
      if (saved?.sort) this.sort = saved.sort;
    } catch {
      // an unreadable saved filter is ignored
    }
  }

  itemAt(index: number): ResultItem | undefined {
    return this.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
  }

  /** Replaces the filter and reloads the first page and the facets. */
  async setFilter(filter: ResultFilter): Promise<void> {
    this.filter = cleanFilter(filter);
    await this.reload();
  }

  /** Changes one part of the filter (undefined removes it). */
  patch(change: Partial<ResultFilter>): Promise<void> {
    return this.setFilter({ ...this.filter, ...change });
  }

  setSort(sort: ResultSort): Promise<void> {
    this.sort = sort;
    return this.reload();
  }

  async reload(): Promise<void> {
    const generation = ++this.generation;
    this.storage?.setItem(STORAGE_KEY, JSON.stringify({ filter: $state.snapshot(this.filter), sort: this.sort }));
    this.inflight = {};
    this.loading = true;
    const filter = $state.snapshot(this.filter);
    // The page first, then the facets: the store answers one query at a time, and the results
    // are what the user waits for; the counts follow.
    try {
      const page = await invoke('results:page', { filter, sort: this.sort, offset: 0, limit: PAGE_SIZE }, this.transport());
      if (generation !== this.generation) return;
      this.pages = { 0: page.items };
      this.total = page.total;
      this.error = null;
      this.gone = null;
      this.shown++;
    } catch (err) {
      if (generation !== this.generation) return;
      if (err instanceof ApiError && err.code === 'not-found' && filter.batchId !== undefined) {
        this.pages = {};
        this.total = 0;
        this.facets = null;
        this.error = null;
        this.gone = err.message;
      } else {
        this.error = `Could not load the results: ${messageOf(err)}`;
      }
      return;
    } finally {
      if (generation === this.generation) this.loading = false;
    }
    try {
      const facets = await invoke('results:facets', { filter }, this.transport());
      if (generation !== this.generation) return;
      this.facets = facets;
      this.counted++;
    } catch (err) {
      if (generation === this.generation) this.error = `Could not count the results: ${messageOf(err)}`;
    }
  }

  /** Makes sure the items from `start` to `end` (exclusive) are loaded. */
  async ensure(start: number, end: number): Promise<void> {
    const first = Math.max(0, Math.floor(start / PAGE_SIZE));
    const last = Math.floor((Math.min(end, this.total) - 1) / PAGE_SIZE);
    const generation = this.generation;
    const loads: Promise<void>[] = [];
    for (let p = first; p <= last; p++) {
      const key = `${generation}:${p}`;
      if (this.pages[p] || this.inflight[key]) continue;
      this.inflight[key] = true;
      const filter = $state.snapshot(this.filter);
      loads.push(
        invoke('results:page', { filter, sort: this.sort, offset: p * PAGE_SIZE, limit: PAGE_SIZE }, this.transport()).then(
          (page) => {
            if (generation !== this.generation) return;
            this.pages = { ...this.pages, [p]: page.items };
            this.total = page.total;
          },
          (err: unknown) => {
            if (generation === this.generation) this.error = `Could not load more results: ${messageOf(err)}`;
          },
        ),
      );
    }
    await Promise.all(loads);
  }

  /** Reloads when a batch changes status (items finished, batch deleted); returns the unsubscribe. */
  subscribe(): () => void {
    return onEvent('batches:changed', () => void this.reload(), this.transport());
  }

  /** Replaces one item in place (after a re-analysis). */
  replaceItem(item: ResultItem): void {
    for (const [p, items] of Object.entries(this.pages)) {
      const i = items.findIndex((x) => x.itemId === item.itemId);
      if (i >= 0) {
        const copy = items.slice();
        copy[i] = item;
        this.pages = { ...this.pages, [p]: copy };
        return;
      }
    }
  }
}

export const resultsState = new ResultsState();
