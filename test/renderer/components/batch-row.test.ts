import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import BatchRow from '../../../src-renderer/components/BatchRow.svelte';
import type { BatchSummary } from '../../../src-main/shared';

const batch = (status: BatchSummary['status']): BatchSummary => ({
  id: 4,
  name: 'Holiday photos',
  status,
  operation: { kind: 'analyze', features: ['Tags'], details: [] },
  backend: { kind: 'local' },
  counts: { total: 20, queued: 8, running: 2, done: 8, failed: 2, skipped: 0 },
  createdAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
});

afterEach(() => cleanup());

describe('BatchRow', () => {
  it('shows progress, rate and ETA of a running batch, and pauses it', async () => {
    const onaction = vi.fn();
    render(BatchRow, {
      batch: batch('running'),
      progress: { batchId: 4, status: 'running', counts: batch('running').counts, imagesPerSecond: 4.5, etaSeconds: 125 },
      onaction,
      onopen: () => {},
    });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('10 / 20 finished')).toBeTruthy();
    expect(screen.getByText('2 failed')).toBeTruthy();
    expect(screen.getByText('4.5 img/s')).toBeTruthy();
    expect(screen.getByText('ETA 2 min 5 s')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    expect(onaction).toHaveBeenCalledWith('pause');
  });

  it('says which unavailable image host a running batch waits for', () => {
    render(BatchRow, {
      batch: batch('running'),
      progress: {
        batchId: 4,
        status: 'running',
        counts: batch('running').counts,
        imagesPerSecond: 0,
        etaSeconds: null,
        unavailableHosts: [
          { host: 'img.example.com', reason: 'no answer in time', unavailableSeconds: 45, waiting: 16 },
          { host: 'cdn.example.org:8080', reason: 'HTTP 503', unavailableSeconds: 200, waiting: 1 },
        ],
      },
      onaction: () => {},
      onopen: () => {},
    });
    expect(screen.getByTestId('batch-unavailable-hosts').textContent).toBe(
      'img.example.com unavailable for 45 s (no answer in time); 16 images wait for it; cdn.example.org:8080 unavailable for 3 min (HTTP 503); 1 image waits for it',
    );
  });

  const distributedBatch = (): BatchSummary => ({
    ...batch('running'),
    backend: { kind: 'distributed', redisUrl: 'redis://queue:6379', queueKey: 'ab12' },
  });

  it('shows the connected distributed workers and the rate of each', () => {
    const b = distributedBatch();
    render(BatchRow, {
      batch: b,
      progress: {
        batchId: 4,
        status: 'running',
        counts: b.counts,
        imagesPerSecond: 6,
        etaSeconds: 10,
        workers: [
          { name: 'box-a', version: '0.1.0', done: 40, imagesPerSecond: 3.5, lastSeenMs: 800 },
          { name: 'box-b', version: '0.1.0', done: 5, imagesPerSecond: 0, lastSeenMs: 60_000 },
        ],
      },
      onaction: () => {},
      onopen: () => {},
    });
    expect(screen.getByText(/distributed workers/)).toBeTruthy();
    const workers = screen.getByTestId('batch-workers').textContent!.replace(/\s+/g, ' ').trim();
    expect(workers).toBe('1 worker · box-a 3.5 img/s · box-b —');
    expect(screen.queryByTestId('batch-redis')).toBeNull();
  });

  it('names the connected workers with other models, which take none of its items', async () => {
    const b = distributedBatch();
    const progress = (mismatchedWorkers?: string[]) => ({
      batchId: 4,
      status: 'running' as const,
      counts: b.counts,
      imagesPerSecond: 0,
      etaSeconds: null,
      workers: [],
      ...(mismatchedWorkers ? { mismatchedWorkers } : {}),
    });
    const { rerender } = render(BatchRow, { batch: b, progress: progress(['box-old']), onaction: () => {}, onopen: () => {} });
    expect(screen.getByTestId('batch-workers').textContent!.trim()).toBe('0 workers');
    expect(screen.getByTestId('batch-mismatched-workers').textContent).toBe('box-old: other models, not used');
    await rerender({ batch: b, progress: progress(), onaction: () => {}, onopen: () => {} });
    expect(screen.queryByTestId('batch-mismatched-workers')).toBeNull();
  });

  it('says when Redis is unreachable or refuses writes, not only that the workers are gone', () => {
    const b = distributedBatch();
    const trouble = 'Redis at redis://queue:6379 unreachable for 12 s (connect ECONNREFUSED 10.0.0.5:6379); waiting for it';
    render(BatchRow, {
      batch: b,
      progress: {
        batchId: 4,
        status: 'running',
        counts: b.counts,
        imagesPerSecond: 0,
        etaSeconds: null,
        workers: [{ name: 'box-a', version: '0.1.0', done: 40, imagesPerSecond: 0, lastSeenMs: 60_000 }],
        redisTrouble: trouble,
      },
      onaction: () => {},
      onopen: () => {},
    });
    expect(screen.getByTestId('batch-redis').textContent).toBe(trouble);
  });

  it('offers resume for a paused batch and shows its row error', async () => {
    const onaction = vi.fn();
    render(BatchRow, {
      batch: batch('paused'),
      progress: undefined,
      error: 'Could not resume this batch: disk full.',
      onaction,
      onopen: () => {},
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(onaction).toHaveBeenCalledWith('resume');
    expect(screen.getByRole('alert').textContent).toBe('Could not resume this batch: disk full.');
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
  });

  it('has no pause or cancel once done', () => {
    render(BatchRow, { batch: batch('done'), progress: undefined, onaction: () => {}, onopen: () => {} });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('offers only Delete for a batch whose delete or import did not finish, and says why', async () => {
    const onaction = vi.fn();
    const { rerender } = render(BatchRow, {
      batch: { ...batch('paused'), unfinished: 'delete' },
      progress: undefined,
      onaction,
      onopen: () => {},
    });
    expect(screen.getByText('deleting')).toBeTruthy();
    expect(screen.getByTestId('batch-unfinished').textContent).toContain('A delete of this batch did not finish (20 items left)');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Holiday photos', 'Delete']);
    await fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onaction).toHaveBeenCalledWith('delete');
    await rerender({ batch: { ...batch('queued'), unfinished: 'import' } });
    expect(screen.getByText('partial')).toBeTruthy();
    expect(screen.getByTestId('batch-unfinished').textContent).toContain('Its list was not fully imported');
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
  });
});
