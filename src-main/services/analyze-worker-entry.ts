// Worker thread that runs analyze's face-free branch (objects, NSFW, pixel statistics) on its own
// engine, one ONNX Runtime thread per session, while the faces run on the calling thread.
// Messages: see analyze-worker.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { runModelBranch, type BranchRequest } from '../analysis';
import type { AppConfig } from '../config';
import type { RgbImage } from '../inference';
import { toWireError } from '../core';
import { openLocalEngine } from './local-engine';

type Request = { type: 'run'; id: number; image: RgbImage; want: BranchRequest } | { type: 'cancel'; id: number } | { type: 'close' };

const port = parentPort!;
const aborts = new Map<number, AbortController>();

try {
  const { config, threads } = workerData as { config: AppConfig; threads: number };
  const engine = openLocalEngine({ ...config, modelThreads: threads });
  port.on('message', (msg: Request) => {
    if (msg.type === 'cancel') return void aborts.get(msg.id)?.abort();
    if (msg.type === 'close') {
      void engine.dispose().finally(() => port.postMessage({ type: 'closed' }));
      return;
    }
    const controller = new AbortController();
    aborts.set(msg.id, controller);
    runModelBranch(msg.image, msg.want, engine, controller.signal)
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
