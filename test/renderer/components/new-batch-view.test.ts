import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import NewBatchView from '../../../src-renderer/views/NewBatchView.svelte';
import { newBatchState } from '../../../src-renderer/state/new-batch.svelte';

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

  it('switches to face detection parameters', async () => {
    newBatchState.reset();
    render(NewBatchView);
    await fireEvent.click(screen.getByLabelText('Face detection'));
    expect(screen.getByText(/minHeadScale/)).toBeTruthy();
    expect(screen.getByLabelText('FRONTAL')).toBeTruthy();
  });
});
