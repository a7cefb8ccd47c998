/**
 * Counts a URL list off the page's thread: the shared parser (`previewUrlList`) run in a Web
 * Worker (`list-count.worker.ts`, its own bundle from Vite, same origin as the page, so the
 * CSP's `script-src 'self'` admits it). Where no worker can run (jsdom in the tests, or one the
 * page may not load), the list is counted on the page instead, as before: slower, never wrong.
 */
import { previewUrlList, type UrlListPreview } from '../../src-main/shared/list-preview';
import type { ListFormat } from '../../src-main/shared/list-layout';

export interface CountRequest {
  id: number;
  text: string;
  format: ListFormat;
}

export interface CountReply {
  id: number;
  preview: UrlListPreview;
}

type List = Omit<CountRequest, 'id'>;

/** The worker once started; `null` when none can run here (then lists are counted on the page). */
let worker: Worker | null | undefined;
const waiting = new Map<number, { list: List; resolve: (preview: UrlListPreview) => void }>();
let lastId = 0;

function startWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./list-count.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return (worker = null);
  }
  worker.onmessage = (event: MessageEvent<CountReply>) => {
    const { id, preview } = event.data;
    waiting.get(id)?.resolve(preview);
    waiting.delete(id);
  };
  // The script failed to load or run: count here from now on, the waiting lists first.
  worker.onerror = () => {
    worker?.terminate();
    worker = null;
    for (const { list, resolve } of waiting.values()) resolve(previewUrlList(list));
    waiting.clear();
  };
  return worker;
}

/** The preview of `list`, counted in the worker (in the order asked), or on the page where none runs. */
export function countList(list: List): Promise<UrlListPreview> {
  const counter = typeof Worker === 'function' ? startWorker() : null;
  if (!counter) return Promise.resolve().then(() => previewUrlList(list));
  return new Promise((resolve) => {
    const id = ++lastId;
    waiting.set(id, { list, resolve });
    counter.postMessage({ id, ...list } satisfies CountRequest);
  });
}
