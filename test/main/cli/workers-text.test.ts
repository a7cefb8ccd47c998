// The distributed progress line's worker part: live workers with their rate, gone ones named as gone.
import { describe, expect, it } from 'vitest';
import { distributedText, workersText } from '../../../src-main/cli/commands/distributed-backend';
import { WORKER_GONE_MS } from '../../../src-main/services/distributed';
import type { WorkerStatus } from '../../../src-main/shared/batch';

const worker = (name: string, lastSeenMs: number, imagesPerSecond: number): WorkerStatus => ({
  name,
  version: '0.1.0',
  done: 10,
  imagesPerSecond,
  lastSeenMs,
});

describe('workersText', () => {
  it('counts live workers with their rates and names a killed one as gone, not with its last rate', () => {
    const text = workersText([worker('wa', WORKER_GONE_MS + 1, 0.63), worker('wb', 500, 1.27), worker('wc', -1, 0.2)]);
    expect(text).toBe(', 1 worker (wa gone, wb 1.27/s, wc gone)');
  });

  it('says nothing for a local batch and "0 workers" before any beat', () => {
    expect(workersText(undefined)).toBe('');
    expect(workersText([])).toBe(', 0 workers');
  });

  it('shows a worker name from another machine with its control characters as U+FFFD, on one line', () => {
    // Names reach the coordinator through Redis from any machine with access to it.
    expect(workersText([worker('box\u001b[2J\nb', 500, 1)])).toBe(', 1 worker (box\ufffd[2J\ufffdb 1/s)');
  });

  it('names the workers with other models after the live ones, before what is wrong with Redis', () => {
    const p = { batchId: 1, status: 'running' as const, counts: { total: 3, queued: 3, running: 0, done: 0, failed: 0, skipped: 0 } };
    const base = { ...p, imagesPerSecond: 0, etaSeconds: null, workers: [worker('wa', 500, 1)] };
    expect(distributedText({ ...base, mismatchedWorkers: ['old-box'], redisTrouble: 'Redis refuses writes' })).toBe(
      ', 1 worker (wa 1/s); old-box has other models and takes none of these items (install the same picscan version and models there); Redis refuses writes',
    );
    expect(distributedText({ ...base, mismatchedWorkers: ['b1', 'b2\n'] })).toBe(
      ', 1 worker (wa 1/s); b1, b2\ufffd have other models and take none of these items (install the same picscan version and models there)',
    );
    expect(distributedText(base)).toBe(', 1 worker (wa 1/s)');
  });
});
