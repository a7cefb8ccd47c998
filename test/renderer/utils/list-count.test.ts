import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { previewUrlList } from '../../../src-main/shared/list-preview';
import type { CountRequest } from '../../../src-renderer/utils/list-count';

/** Stands in for the browser's Worker: keeps what it is sent, answers when told to, as the real one would. */
class FakeWorker {
  static made: FakeWorker[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  sent: CountRequest[] = [];
  terminated = false;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    FakeWorker.made.push(this);
  }
  postMessage(request: CountRequest): void {
    this.sent.push(request);
  }
  terminate(): void {
    this.terminated = true;
  }
  answerNext(): void {
    const { id, text, format } = this.sent.shift()!;
    this.onmessage?.({ data: { id, preview: previewUrlList({ text, format }) } } as MessageEvent);
  }
}

// The module keeps its worker: a fresh copy per test.
const load = async () => (await import('../../../src-renderer/utils/list-count')).countList;

beforeEach(() => {
  vi.resetModules();
  FakeWorker.made = [];
});
afterEach(() => vi.unstubAllGlobals());

describe('countList', () => {
  it('counts in one module worker, each answer to its own list', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const countList = await load();
    const first = countList({ text: 'https://a.example/1.jpg\nbad', format: 'txt' });
    const second = countList({ text: 'url\nhttps://a.example/1.jpg', format: 'csv' });
    expect(FakeWorker.made).toHaveLength(1);
    const [worker] = FakeWorker.made;
    expect(worker!.url.href).toMatch(/list-count\.worker\.ts/);
    expect(worker!.options).toEqual({ type: 'module' });
    expect(worker!.sent.map((r) => r.format)).toEqual(['txt', 'csv']);
    worker!.answerNext();
    worker!.answerNext();
    expect(await first).toMatchObject({ read: 2, valid: 1, invalid: 1 });
    expect(await second).toMatchObject({ read: 1, valid: 1, invalid: 0 });
  });

  it('counts on the page when the worker cannot load, the lists already sent included', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const countList = await load();
    const waiting = countList({ text: 'https://a.example/1.jpg', format: 'txt' });
    const [worker] = FakeWorker.made;
    worker!.onerror?.(new Event('error')); // e.g. refused by a Content-Security-Policy
    expect(worker!.terminated).toBe(true);
    expect(await waiting).toMatchObject({ read: 1, valid: 1 });
    expect(await countList({ text: 'bad', format: 'txt' })).toMatchObject({ read: 1, invalid: 1 });
    expect(FakeWorker.made).toHaveLength(1); // not tried again
  });

  it('counts on the page where there are no workers', async () => {
    vi.stubGlobal('Worker', undefined);
    const countList = await load();
    expect(await countList({ text: 'https://a.example/1.jpg\nhttps://a.example/1.jpg', format: 'txt' })).toMatchObject({
      read: 2,
      valid: 1,
      duplicates: 1,
    });
  });
});
