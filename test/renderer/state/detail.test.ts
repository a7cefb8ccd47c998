import { describe, expect, it } from 'vitest';
import type { ResultDetail } from '../../../src-main/shared';
import { DetailState } from '../../../src-renderer/state/detail.svelte';
import { fakeDeps, inProcessTransport } from '../helpers';

/** Fake services whose `results:get` answers only when the test releases that item. */
function heldAnswers() {
  const deps = fakeDeps();
  const get = deps.results.get.bind(deps.results);
  const waiting = new Map<number, () => void>();
  deps.results.get = async (id: number): Promise<ResultDetail> => {
    await new Promise<void>((release) => waiting.set(id, release));
    return get(id);
  };
  const release = async (id: number): Promise<void> => {
    for (let i = 0; i < 50 && !waiting.has(id); i++) await new Promise((r) => setTimeout(r, 1));
    waiting.get(id)!();
    waiting.delete(id);
  };
  return { deps, release };
}

describe('DetailState', () => {
  it('shows no other item while the next one loads', async () => {
    const { deps, release } = heldAnswers();
    const s = new DetailState(() => inProcessTransport(deps));
    const first = s.load(1);
    await release(1);
    await first;
    expect(s.detail?.item.itemId).toBe(1);
    const second = s.load(2);
    expect(s.detail).toBeNull();
    expect(s.loading).toBe(true);
    await release(2);
    await second;
    expect(s.detail?.item.itemId).toBe(2);
    expect(s.loading).toBe(false);
  });

  it('keeps the item last opened when an earlier answer comes in after it', async () => {
    const { deps, release } = heldAnswers();
    const s = new DetailState(() => inProcessTransport(deps));
    const slow = s.load(1);
    const fast = s.load(2);
    await release(2);
    await fast;
    await release(1);
    await slow;
    expect(s.detail?.item.itemId).toBe(2);
    expect(s.loading).toBe(false);
  });

  it('an error of an earlier load does not replace the item last opened', async () => {
    const { deps, release } = heldAnswers();
    const s = new DetailState(() => inProcessTransport(deps));
    const gone = s.load(99);
    const fine = s.load(2);
    await release(2);
    await fine;
    await release(99);
    await gone;
    expect(s.detail?.item.itemId).toBe(2);
    expect(s.error).toBeNull();
  });
});
