import { describe, expect, it, vi } from 'vitest';
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

  it("keeps a quick run's last progress when an action's answer or a reload arrives after it", async () => {
    const deps = fakeDeps();
    const t = inProcessTransport(deps);
    const s = new BatchesState(() => t);
    await s.load();
    const off = s.subscribe();
    const summary = await deps.batches.get(1);
    const running = { ...summary, status: 'running' as const, counts: { ...summary.counts, queued: 1, done: 1 } };
    const finished = { batchId: 1, status: 'done' as const, counts: summary.counts, imagesPerSecond: 2, etaSeconds: 0 };
    // The run ends (its last progress event) before the answer of the action that started it arrives.
    deps.batches.resume = async () => {
      t.emit('batches:progress', finished);
      return running;
    };
    await s.act(1, 'resume');
    expect(s.batches[0]!.status).toBe('done');
    expect(s.batches[0]!.counts.done).toBe(2);
    // The same for a reload whose list was read before the last event.
    deps.batches.list = async () => {
      t.emit('batches:progress', { ...finished, imagesPerSecond: 3 });
      return [running];
    };
    await s.load();
    expect(s.batches[0]!.status).toBe('done');
    expect(s.progress[1]!.imagesPerSecond).toBe(3);
    // Without events in between, the answer is taken as it is.
    deps.batches.list = async () => [running];
    await s.load();
    expect(s.batches[0]!.status).toBe('running');
    off();
  });

  it('shows the latest reload when two are answered in the other order, and no batch deleted since', async () => {
    const deps = fakeDeps();
    const t = inProcessTransport(deps);
    const s = new BatchesState(() => t);
    await s.load();
    const first = await deps.batches.get(1);
    const second = { ...first, id: 2, name: 'second' };
    // Two reloads in a row (a batch created, then another change); the first one's list is read
    // before the creation and answered last.
    deps.batches.remove = async () => {};
    const answers: Array<(list: (typeof first)[]) => void> = [];
    deps.batches.list = () => new Promise((resolve) => answers.push(resolve));
    const older = s.load();
    const newer = s.load();
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!([first, second]);
    await newer;
    expect(s.batches.map((b) => b.name)).toEqual(['fixtures', 'second']);
    answers[0]!([first]);
    await older;
    expect(s.batches.map((b) => b.name)).toEqual(['fixtures', 'second']);

    // A reload issued before a delete and answered after it does not bring the batch back.
    const pending = s.load();
    await vi.waitFor(() => expect(answers).toHaveLength(3));
    await s.act(2, 'delete');
    expect(s.batches.map((b) => b.name)).toEqual(['fixtures']);
    answers[2]!([first, second]);
    await pending;
    expect(s.batches.map((b) => b.name)).toEqual(['fixtures']);
    // A reload issued after the delete shows what the list says.
    deps.batches.list = async () => [first, second];
    await s.load();
    expect(s.batches.map((b) => b.name)).toEqual(['fixtures', 'second']);
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
