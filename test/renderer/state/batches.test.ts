import { describe, expect, it } from 'vitest';
import { BatchesState } from '../../../src-renderer/state/batches.svelte';
import { fakeDeps, inProcessTransport } from '../helpers';

describe('BatchesState', () => {
  it('loads the list and applies live progress to its row', async () => {
    const t = inProcessTransport();
    const s = new BatchesState(() => t);
    await s.load();
    expect(s.batches.map((b) => b.name)).toEqual(['fixtures']);
    const off = s.subscribe();
    t.emit('batches:progress', {
      batchId: 1,
      status: 'running',
      counts: { total: 2, queued: 1, running: 1, done: 0, failed: 0, skipped: 0 },
      imagesPerSecond: 3,
      etaSeconds: 1,
    });
    expect(s.batches[0]!.status).toBe('running');
    expect(s.progress[1]!.imagesPerSecond).toBe(3);
    off();
  });

  it('shows a failed action on the batch row in plain words', async () => {
    const deps = fakeDeps();
    deps.batches.pause = async () => {
      const { AppError } = await import('../../../src-main/core');
      throw new AppError('invalid-input', 'Batch 1 is already done.');
    };
    const s = new BatchesState(() => inProcessTransport(deps));
    await s.load();
    await s.act(1, 'pause');
    expect(s.rowErrors[1]).toBe('Could not pause this batch: Batch 1 is already done.');
    expect(s.busy[1]).toBe(false);
  });

  it('removes a deleted batch and explains a load failure', async () => {
    const s = new BatchesState(() => inProcessTransport());
    await s.load();
    await s.act(1, 'delete');
    expect(s.batches).toEqual([]);
    const broken = new BatchesState(() => undefined);
    await broken.load();
    expect(broken.error).toMatch(/Could not load the batches: No connection/);
  });
});
