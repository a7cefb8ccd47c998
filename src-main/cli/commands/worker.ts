import { Option, type Command } from 'commander';
import { loadConfig } from '../../config';
import { AppError, consoleLogger } from '../../core';
import { createIntakeFetcher } from '../../jobs';
import { intakeOptions } from '../../intake';
import { createBackend } from '../../app';
import { defaultWorkerName, modelSetOf, parseRedisUrl, startWorker } from '../../services/distributed';
import { ANALYSIS_CONCURRENCY } from '../../shared/contract';
import { countFlag } from '../flags';
import { givenRedisUrl } from './distributed-backend';

interface WorkerFlags {
  redis?: string;
  concurrency: string;
  name?: string;
  allowPrivateNetworks?: boolean;
  grace: string;
  lockMs?: string;
  stalledMs?: string;
}

/**
 * `picscan worker --redis <url>`: a headless worker for distributed batches. Loads the models
 * once, takes jobs until SIGTERM/SIGINT, then finishes the jobs in hand (or hands them back
 * after `--grace` seconds) and exits 0.
 */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('analyse images for distributed batches: take jobs from Redis, return results to the coordinator')
    .option('--redis <url>', 'Redis URL (redis:// or rediss:// for TLS; or PICSCAN_REDIS_URL)')
    .option('--concurrency <n>', 'jobs at once (each fetches, then analyses)', '4')
    .option('--name <name>', 'worker name shown by the coordinator (default host:pid)')
    .option('--allow-private-networks', 'allow image URLs on private and loopback addresses (default: refused)')
    .option('--grace <seconds>', 'on SIGTERM: time to finish jobs in hand before handing them back', '30')
    .addOption(new Option('--lock-ms <ms>', 'job lock duration (tests)').hideHelp())
    .addOption(new Option('--stalled-ms <ms>', 'stalled-job check period (tests)').hideHelp())
    .action(async (o: WorkerFlags) => {
      const url = givenRedisUrl(o);
      if (!url) throw new AppError('invalid-parameter', 'picscan worker needs --redis <url> (or PICSCAN_REDIS_URL).');
      const redis = parseRedisUrl(url);
      const concurrency = countFlag(o.concurrency, '--concurrency', ANALYSIS_CONCURRENCY);
      const config = loadConfig({});
      const modelSet = modelSetOf(config.modelsDir);
      // The models in worker threads, as the desktop's and the CLI's batches run them.
      const backend = createBackend(config, { logger: consoleLogger });
      const processor = await backend.batchModels().catch(async (err: unknown) => {
        await backend.close();
        throw err;
      });
      // The worker's own network policy: a coordinator elsewhere must not make it read local
      // files or, unless allowed, reach this machine's private network.
      const fetcher = createIntakeFetcher(intakeOptions('api', { blockPrivateNetworks: !o.allowPrivateNetworks }));
      const host = await startWorker({
        redis,
        modelSet,
        processor,
        fetcher,
        name: o.name ?? defaultWorkerName(),
        version: config.version,
        concurrency,
        logger: consoleLogger,
        lockDurationMs: o.lockMs === undefined ? undefined : Number(o.lockMs),
        stalledIntervalMs: o.stalledMs === undefined ? undefined : Number(o.stalledMs),
      });
      await new Promise<void>((resolve) => {
        const stop = (signal: string): void => {
          consoleLogger.info(`${signal}: finishing the jobs in hand…`);
          resolve();
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
      await host.close(Number(o.grace) * 1000 || 30_000);
      await fetcher.close?.();
      await backend.close();
      consoleLogger.info(`worker ${host.name} stopped after ${host.processed()} images`);
    });
}
