import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, ResultsState, cleanFilter } from '../../../src-renderer/state/results.svelte';
import type { ApiDeps } from '../../../src-main/http/bridge/handlers';
import type { ResultItem } from '../../../src-main/shared';
import { fakeDeps, inProcessTransport } from '../helpers';

function bigDeps(total: number, delays: Record<string, number> = {}): ApiDeps {
  const deps = fakeDeps();
  deps.results.page = async (q) => {
    const key = JSON.stringify(q.filter);
    if (delays[key]) await new Promise((r) => setTimeout(r, delays[key]));
    const n = q.filter.tags?.includes('rare') ? 3 : total;
    const offset = q.offset ?? 0;
    const items = Array.from(
      { length: Math.max(0, Math.min(q.limit ?? 100, n - offset)) },
      (_, k) => ({ itemId: offset + k + 1 }) as ResultItem,
    );
    return { items, total: n, offset, limit: q.limit ?? 100 };
  };
  return deps;
}

describe('ResultsState', () => {
  it('drops empty filter fields', () => {
    expect(cleanFilter({ tags: [], captionText: '', minFaces: 0, isBW: false, maxAdult: undefined })).toEqual({ minFaces: 0, isBW: false });
  });

  it('loads the first page and facets for a filter, then the pages the grid asks for', async () => {
    const t = inProcessTransport(bigDeps(100_000));
    const s = new ResultsState(() => t);
    await s.setFilter({ batchId: 1 });
    expect(s.total).toBe(100_000);
    expect(s.itemAt(0)?.itemId).toBe(1);
    expect(s.itemAt(PAGE_SIZE)).toBeUndefined();
    expect(s.facets?.total).toBe(2);
    await s.ensure(50_000, 50_010);
    expect(s.itemAt(50_005)?.itemId).toBe(50_006);
    const before = t.calls.length;
    await s.ensure(50_000, 50_010);
    expect(t.calls.length).toBe(before); // cached
  });

  it('ignores an answer for a filter that was replaced meanwhile', async () => {
    const t = inProcessTransport(bigDeps(500, { [JSON.stringify({ tags: ['slow'] })]: 50 }));
    const s = new ResultsState(() => t);
    const slow = s.setFilter({ tags: ['slow'] });
    await s.setFilter({ tags: ['rare'] });
    await slow;
    expect(s.total).toBe(3);
    expect(s.filter).toEqual({ tags: ['rare'] });
  });

  it('restores the filter and order after a reload of the tab', async () => {
    const storage = window.sessionStorage;
    storage.clear();
    const first = new ResultsState(() => inProcessTransport(bigDeps(10)), storage);
    await first.setFilter({ tags: ['a'], minFaces: 1 });
    await first.setSort('faces');
    const again = new ResultsState(() => inProcessTransport(bigDeps(10)), storage);
    expect(again.filter).toEqual({ tags: ['a'], minFaces: 1 });
    expect(again.sort).toBe('faces');
    storage.clear();
  });

  it('patches one part of the filter and shows errors in plain words', async () => {
    const s = new ResultsState(() => inProcessTransport(bigDeps(10)));
    await s.setFilter({ tags: ['a'] });
    await s.patch({ minFaces: 1 });
    expect(s.filter).toEqual({ tags: ['a'], minFaces: 1 });
    await s.patch({ maxAdult: 3 });
    expect(s.error).toMatch(/Could not load the results: Invalid results:page request/);
  });
});
