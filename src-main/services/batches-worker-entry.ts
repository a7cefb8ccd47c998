// Worker thread that runs the local models for batches, so pre/post-processing in JavaScript
// never blocks the event loop of the process hosting the UI bridge. Calls: see batches-worker.ts;
// the protocol is worker-rpc.ts.
import { workerData } from 'node:worker_threads';
import type { AppConfig } from '../config';
import { adoptWorkingCopy } from '../inference';
import type { ProcessedImage } from '../jobs';
import type { BatchCall } from './batches-worker';
import { localBatchProcessor } from './batches-processor';
import { serveRpc } from './worker-rpc';

await serveRpc<BatchCall, ProcessedImage>(async () => {
  const processor = await localBatchProcessor((workerData as { config: AppConfig }).config);
  return {
    handle: (call, signal) => {
      if (call.workingCopy) adoptWorkingCopy(call.image.image, call.workingCopy);
      return processor.process(call.image, call.operation, signal);
    },
    close: async () => {
      await processor.close?.();
    },
    halt: async () => {
      await processor.halt?.();
    },
  };
});
