import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FilterPanel from '../../../src-renderer/components/FilterPanel.svelte';
import type { Facets } from '../../../src-main/shared';

const facets: Facets = {
  total: 20,
  tags: [
    { name: 'person', count: 9 },
    { name: 'cat', count: 2 },
  ],
  categories: [{ name: 'people_', count: 7 }],
  colors: [{ name: 'Black', count: 3 }],
  status: [
    { name: 'done', count: 18 },
    { name: 'failed', count: 2 },
  ],
  withFaces: 8,
  bw: 3,
  clipArt: 4,
  lineDrawing: 2,
};

afterEach(() => cleanup());

describe('FilterPanel', () => {
  it('shows live counts for every facet', () => {
    render(FilterPanel, { filter: {}, facets, onchange: () => {} });
    expect(screen.getByLabelText(/person/).closest('label')?.textContent).toContain('9');
    expect(screen.getByText('(8 with faces)')).toBeTruthy();
    expect(screen.getByText('(4)')).toBeTruthy();
    expect(screen.getByLabelText(/failed/).closest('label')?.textContent).toContain('2');
  });

  it('adds a tag and sets "has faces" through the callback', async () => {
    const onchange = vi.fn();
    render(FilterPanel, { filter: { tags: ['person'] }, facets, onchange });
    await fireEvent.click(screen.getByLabelText(/cat/));
    expect(onchange).toHaveBeenLastCalledWith({ tags: ['person', 'cat'] });
    await fireEvent.change(screen.getByTestId('faces-filter'), { target: { value: 'some' } });
    expect(onchange).toHaveBeenLastCalledWith({ minFaces: 1, maxFaces: undefined });
    await fireEvent.click(screen.getByLabelText(/Line drawing/));
    expect(onchange).toHaveBeenLastCalledWith({ lineDrawing: true });
  });

  it('keeps a selected tag listed when the facets no longer have it', () => {
    render(FilterPanel, { filter: { tags: ['unicorn'] }, facets, onchange: () => {} });
    expect((screen.getByLabelText(/unicorn/) as HTMLInputElement).checked).toBe(true);
  });
});
