import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import NewBatchView from '../../../src-renderer/views/NewBatchView.svelte';
import { HELD_LIST_CHARS, newBatchState } from '../../../src-renderer/state/new-batch.svelte';

afterEach(() => cleanup());

describe('New batch screen', () => {
  it('shows how many URLs were read and how many are invalid before starting', async () => {
    newBatchState.reset();
    render(NewBatchView);
    const start = screen.getByTestId('start-batch') as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    await fireEvent.input(screen.getByTestId('url-list'), {
      target: { value: 'https://a.example/1.jpg\nhttps://b.example/2.jpg\nnope\n' },
    });
    expect(screen.getByTestId('url-counts').textContent?.replace(/\s+/g, ' ').trim()).toBe('3 read · 2 valid · 1 invalid');
    expect(start.disabled).toBe(false);
    expect(start.textContent).toContain('Start batch of 3 URLs');
  });

  it('counts a single URL in the singular on the start button', async () => {
    newBatchState.reset();
    render(NewBatchView);
    await fireEvent.input(screen.getByTestId('url-list'), { target: { value: 'https://a.example/1.jpg\n' } });
    expect(screen.getByTestId('start-batch').textContent?.trim()).toBe('Start batch of 1 URL');
  });

  it('switches to face detection parameters', async () => {
    newBatchState.reset();
    render(NewBatchView);
    await fireEvent.click(screen.getByLabelText('Face detection'));
    expect(screen.getByText(/minHeadScale/)).toBeTruthy();
    expect(screen.getByLabelText('FRONTAL')).toBeTruthy();
  });

  it('holds a paste too long for the textarea, sums it up, and clears it', async () => {
    newBatchState.reset();
    render(NewBatchView);
    const lines = Array.from({ length: Math.ceil(HELD_LIST_CHARS / 20) }, (_, i) => `https://a.example/${i}.jpg`);
    const area = screen.getByTestId('url-list') as HTMLTextAreaElement;
    const clipboardData = { getData: (type: string) => (type === 'text/plain' ? lines.join('\n') : '') };
    // The browser's own paste is stopped (it would lay the whole list out in the textarea).
    expect(await fireEvent.paste(area, { clipboardData })).toBe(false);
    const held = screen.getByRole('region', { name: /Image URLs pasted/ });
    expect(held.dataset.testid).toBe('url-list-held');
    expect(screen.queryByTestId('url-list')).toBeNull();
    expect(screen.getByTestId('url-list-size').textContent).toBe(`${lines.length.toLocaleString('en')} lines, 0.1 MB`);
    expect(screen.getByTestId('url-list-head').textContent).toBe(lines.slice(0, 10).join('\n'));
    await vi.waitFor(() => expect(screen.getByTestId('url-counts').textContent).toContain(`${lines.length} valid`));
    await fireEvent.click(screen.getByRole('button', { name: 'Clear list' }));
    expect((screen.getByTestId('url-list') as HTMLTextAreaElement).value).toBe('');
    expect(screen.queryByTestId('url-list-held')).toBeNull();
    expect(screen.getByTestId('url-counts').textContent?.replace(/\s+/g, ' ').trim()).toBe('0 read · 0 valid · 0 invalid');
  });

  it('leaves a short paste to the textarea', async () => {
    newBatchState.reset();
    render(NewBatchView);
    const area = screen.getByTestId('url-list');
    expect(await fireEvent.paste(area, { clipboardData: { getData: () => 'https://a.example/1.jpg' } })).toBe(true);
    expect(screen.queryByTestId('url-list-held')).toBeNull();
  });
});
