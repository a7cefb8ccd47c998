import { Option, type Command } from 'commander';
import { loadConfig } from '../../config';
import { AppError, consoleLogger } from '../../core';
import { startWorkerParts, verifyModels, type WorkerParts } from '../../app';
import { checkRedis, defaultWorkerName, modelSetOf, parseRedisUrl, startWorker } from '../../services/distributed';
import { ExitCode } from '../exit-codes';
import { quitNow } from '../quit-now';
import { catchStopSignals } from '../stop-signal';
import { ANALYSIS_CONCURRENCY } from '../../shared/contract';
import { countFlag, secondsFlag } from '../flags';
import { givenRedisUrl } from './distributed-backend';
import { counted } from '../../shared/counted';

/** How long the start-up check waits for Redis to answer, ms. */
const REDIS_CHECK_MS = 5_000;
/** `--grace`: seconds to finish the jobs in hand on SIGTERM (0: hand them back at once). */
const GRACE_S = { min: 0, max: 86_400 } as const;

/** After the grace time, how long stopping may still take before the process exits anyway, ms. */
const STOP_MARGIN_MS = 3_000;
/**
 * Last resort when stopping cleanly is not possible (Redis unreachable, a close that hangs, a
 * second signal): exit now, exit code 1, the model threads halted first (`quitNow`). Nothing is
 * lost: the jobs in hand keep their BullMQ locks only until they lapse, then the queue's
 * stalled-job check gives them to another worker. A third signal, or the timer during the halt,
 * joins the exit on its way.
 */
function abandon(why: string, processor: WorkerParts['processor']): Promise<never> {
  consoleLogger.warn(`Stopping without a clean close (${why}): jobs in hand go back to the queue through its stalled-job check.`);
  return quitNow(ExitCode.failed, () => processor.halt?.() ?? Promise.resolve());
}

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
      const graceMs = secondsFlag(o.grace, '--grace', GRACE_S) * 1000;
      const stop = catchStopSignals();
      const config = loadConfig({});
      const modelSet = modelSetOf(config.modelsDir);
      // Every model file now, before taking any job.
      await verifyModels(config);
      // A refused password or a missing database is fatal; a server not up yet is waited for
      // (workers run under a supervisor and may start before Redis).
      const check = await checkRedis(redis, REDIS_CHECK_MS);
      if (!check.reachable) consoleLogger.warn(`Redis at ${redis.redacted} is not reachable yet (${check.reason}); waiting for it`);
      const parts = await startWorkerParts(config, { allowPrivateNetworks: o.allowPrivateNetworks === true, logger: consoleLogger });
      const { processor, fetcher } = parts;
      let givingUp: Promise<never> | undefined;
      const giveUp = (why: string): Promise<never> => (givingUp ??= abandon(why, processor));
      // A second signal, however soon after the first: stop now. A third one during the halt joins it.
      stop.onAgain((signal) => void giveUp(`${signal} again`));
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
      const signal = await stop.received;
      consoleLogger.info(`${signal}: finishing the jobs in hand…`);
      // Whatever state Redis is in, the process ends shortly after the grace time.
      setTimeout(() => void giveUp('did not stop in time'), graceMs + STOP_MARGIN_MS).unref();
      if (!(await host.close(graceMs))) await giveUp('Redis did not answer');
      await parts.close();
      consoleLogger.info(`worker ${host.name} stopped after ${counted(host.processed(), 'image')}`);
    });
}
