// Worker thread that runs the local models for batches, so pre/post-processing in JavaScript
// never blocks the event loop of the process hosting the UI bridge. Messages: see batches-worker.ts.
import { parentPort, workerData } from 'node:worker_threads';
import type { AppConfig } from '../config';
import { toWireError } from '../core';
import type { FetchedImage } from '../jobs';
import type { BatchOperation } from '../shared/batch';
import { localBatchProcessor } from './batches-processor';

type Request =
  { type: 'process'; id: number; image: FetchedImage; operation: BatchOperation } | { type: 'cancel'; id: number } | { type: 'close' };

const port = parentPort!;
const aborts = new Map<number, AbortController>();

try {
  const processor = await localBatchProcessor((workerData as { config: AppConfig }).config);
  port.on('message', (msg: Request) => {
    if (msg.type === 'cancel') return void aborts.get(msg.id)?.abort();
    if (msg.type === 'close') {
      void (processor.close?.() ?? Promise.resolve()).finally(() => port.postMessage({ type: 'closed' }));
      return;
    }
    const controller = new AbortController();
    aborts.set(msg.id, controller);
    processor
      .process(msg.image, msg.operation, controller.signal)
      .then(
        (result) => port.postMessage({ type: 'done', id: msg.id, result }),
        (err: unknown) =>
          port.postMessage({ type: 'error', id: msg.id, error: toWireError(err), stack: err instanceof Error ? err.stack : String(err) }),
      )
      .finally(() => aborts.delete(msg.id));
  });
  port.postMessage({ type: 'ready' });
} catch (err) {
  port.postMessage({ type: 'init-error', error: toWireError(err), stack: err instanceof Error ? err.stack : String(err) });
}
