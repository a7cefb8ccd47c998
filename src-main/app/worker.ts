import { join } from 'node:path';
import type { AppConfig } from '../config';
import type { Logger } from '../core';
import { loadManifest, verifyModelFiles } from '../inference';
import { intakeOptions } from '../intake';
import { createIntakeFetcher, type ImageFetcher, type ImageProcessor } from '../jobs';
import { createBackend } from './backend';

/** What `picscan worker` hands to `startWorker`, and the way to dispose of it. */
export interface WorkerParts {
  /** The batch models in worker threads, as the desktop's and the CLI's batches run them. */
  processor: ImageProcessor;
  /** Downloads with the worker's own network policy. */
  fetcher: ImageFetcher;
  /** Closes the fetcher, then the models. */
  close(): Promise<void>;
}

/**
 * Every model file of the manifest, checked now: the engine checks each only at its first use,
 * and a worker with a broken one would fail every job it takes.
 */
export async function verifyModels(config: AppConfig): Promise<void> {
  await verifyModelFiles(loadManifest(join(config.modelsDir, 'manifest.json')), config.modelsDir);
}

/**
 * Starts a distributed worker's models and fetcher. The fetcher uses the API's intake: a
 * coordinator elsewhere must not make the worker read this machine's files or, unless
 * `allowPrivateNetworks`, reach its private network.
 */
export async function startWorkerParts(config: AppConfig, opts: { allowPrivateNetworks: boolean; logger: Logger }): Promise<WorkerParts> {
  const backend = createBackend(config, { logger: opts.logger });
  const processor = await backend.batchModels().catch(async (err: unknown) => {
    await backend.close();
    throw err;
  });
  const fetcher = createIntakeFetcher(intakeOptions('api', { blockPrivateNetworks: !opts.allowPrivateNetworks }), { logger: opts.logger });
  return {
    processor,
    fetcher,
    close: async () => {
      await fetcher.close?.();
      await backend.close();
    },
  };
}
