import { availableParallelism } from 'node:os';
import type { AppConfig } from '../config';
import { silentLogger, type Logger } from '../core';
import type { ImageProcessor } from '../jobs';
import { singleWorkerProcessor } from './batches-worker';

/**
 * The local batch backend in worker threads: `config.analysisWorkers` of them (default 1, at most
 * one per core). ONNX Runtime runs a model synchronously on its calling thread, so one worker
 * runs one analysis at a time however many are in flight; with several, each holding its share
 * of `modelThreads`, analyses really run side by side, at the cost of one copy of the models and
 * their buffers per worker (measured in docs/benchmarks.md). Images go to the least busy worker.
 */
export async function workerBatchProcessor(config: AppConfig, logger: Logger = silentLogger): Promise<ImageProcessor> {
  const size = Math.max(1, Math.min(config.analysisWorkers, config.analysisConcurrency, availableParallelism()));
  if (size === 1) return singleWorkerProcessor(config, logger);
  const share: AppConfig = { ...config, modelThreads: Math.max(1, Math.floor(config.modelThreads / size)) };
  const started = await Promise.allSettled(Array.from({ length: size }, () => singleWorkerProcessor(share, logger)));
  const members = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    // e.g. model-missing: stop the workers that did start, then report why.
    await Promise.all(members.map((m) => m.close?.()));
    throw failed.reason;
  }
  const busy = members.map(() => 0);
  return {
    async process(image, operation, signal) {
      const i = busy.indexOf(Math.min(...busy));
      busy[i]!++;
      try {
        return await members[i]!.process(image, operation, signal);
      } finally {
        busy[i]!--;
      }
    },
    async close() {
      await Promise.all(members.map((m) => m.close?.()));
    },
    async halt() {
      await Promise.all(members.map((m) => m.halt?.()));
    },
  };
}
