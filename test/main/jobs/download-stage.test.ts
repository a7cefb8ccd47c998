import { describe, expect, it } from 'vitest';
import { DownloadStage, MAX_WAITING_FOR_HOSTS } from '../../../src-main/jobs/download-stage';

// The feeder's bound on items being fetched: items waiting for an unavailable host are counted
// apart, up to their own larger bound.

const pending = (): { promise: Promise<void>; settle: () => void } => {
  let settle!: () => void;
  const promise = new Promise<void>((r) => (settle = r));
  return { promise, settle };
};
const state = async (p: Promise<unknown>): Promise<'waiting' | 'resolved' | 'rejected'> =>
  Promise.race([
    p.then(
      () => 'resolved' as const,
      () => 'rejected' as const,
    ),
    new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 20)),
  ]);

describe('DownloadStage', () => {
  it('makes room when an item settles or starts waiting for its host, not while it is busy', async () => {
    const stage = new DownloadStage();
    const signal = new AbortController().signal;
    const items = [pending(), pending()];
    for (const item of items) stage.track(item.promise);
    expect(stage.busy).toBe(2);
    const room = stage.roomFor(2, signal);
    expect(await state(room)).toBe('waiting');
    stage.hostWait(true); // the first item waits for its host: it holds no place in the bound
    expect(await state(room)).toBe('resolved');
    expect(stage.busy).toBe(1);

    stage.track(pending().promise);
    const next = stage.roomFor(2, signal);
    expect(await state(next)).toBe('waiting');
    items[1]!.settle();
    expect(await state(next)).toBe('resolved');
  });

  it('stops claiming once MAX_WAITING_FOR_HOSTS items wait, and a stopped run stops waiting for room', async () => {
    const stage = new DownloadStage();
    const items = Array.from({ length: MAX_WAITING_FOR_HOSTS }, () => pending());
    for (const item of items) {
      stage.track(item.promise);
      stage.hostWait(true);
    }
    expect(stage.busy).toBe(0);
    const stop = new AbortController();
    const room = stage.roomFor(16, stop.signal);
    expect(await state(room)).toBe('waiting');
    stop.abort();
    expect(await state(room)).toBe('rejected');

    const settled = stage.settled();
    expect(await state(settled)).toBe('waiting');
    for (const item of items) item.settle();
    expect(await state(settled)).toBe('resolved');
  });
});
