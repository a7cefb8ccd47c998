import { cleanup, render } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import GridHarness from './GridHarness.svelte';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// jsdom has no layout: a no-op observer leaves the viewport at 0×0 (the grid still renders a margin).
class NoLayoutObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

describe('VirtualGrid', () => {
  it('renders only the rows on screen out of 100 000 items, and asks for their range', () => {
    vi.stubGlobal('ResizeObserver', NoLayoutObserver);
    const onrange = vi.fn();
    const { container } = render(GridHarness, { total: 100_000, onrange });
    const cells = container.querySelectorAll('[role="gridcell"]');
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.length).toBeLessThan(50);
    expect(container.querySelector('[role="grid"]')?.getAttribute('aria-rowcount')).toBe('100000');
    expect(onrange).toHaveBeenCalledWith(0, cells.length);
  });
});
