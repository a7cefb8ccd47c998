// Worker thread that runs analyze's face-free branch (objects, NSFW, pixel statistics) on its own
// engine, one ONNX Runtime thread per session, while the faces run on the calling thread; and,
// while it has no branch in hand, single face-model runs the calling thread hands over.
// Calls: see analyze-worker.ts; the protocol is worker-rpc.ts.
import { workerData } from 'node:worker_threads';
import { runModelBranch } from '../analysis';
import type { AppConfig } from '../config';
import type { BranchCall, BranchReply } from './analyze-worker';
import { haltModelRuns } from '../inference';
import { openLocalEngine } from './local-engine';
import { serveRpc } from './worker-rpc';

await serveRpc<BranchCall, BranchReply>(() => {
  const { config, threads } = workerData as { config: AppConfig; threads: number };
  const engine = openLocalEngine({ ...config, modelThreads: threads });
  return {
    handle: (call, signal): Promise<BranchReply> =>
      'model' in call ? engine.run(call.model.id, call.model.feeds, signal) : runModelBranch(call.image, call.want, engine, signal),
    close: () => engine.dispose(),
    halt: haltModelRuns,
  };
});
