import { describe, expect, it } from 'vitest';
import { parseHash, routeHash } from '../../../src-renderer/state/nav.svelte';

describe('screen routes in the URL hash', () => {
  it('round-trips every screen so a reload shows the same one', () => {
    for (const hash of ['#/batches', '#/new', '#/results', '#/results/4', '#/item/12', '#/settings'])
      expect(routeHash(parseHash(hash))).toBe(hash);
  });
  it('falls back to the batch list for unknown or broken hashes', () => {
    expect(parseHash('')).toEqual({ name: 'batches' });
    expect(parseHash('#/item/abc')).toEqual({ name: 'results', batchId: null });
    // Beyond the contract's ids: not sent, so no schema message ("Invalid results:get request…").
    expect(parseHash('#/item/99999999999999999999')).toEqual({ name: 'results', batchId: null });
    expect(parseHash('#/results/1e20')).toEqual({ name: 'results', batchId: null });
  });
});
