import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { AppError, type Logger } from '../../core';
import type { Backend } from '../../app';
import { withBackend } from '../with-backend';
import type { BatchService } from '../../services/batches.service';
import { ANALYSIS_CONCURRENCY, detailsList, DOWNLOAD_CONCURRENCY, featuresList, MIN_HEAD_SCALE, selectorList } from '../../shared/contract';
import { DETAILS, SELECTORS, VISUAL_FEATURES } from '../../shared/spec';
import type { BatchOperation, BatchProgress, BatchSummary } from '../../shared/batch';
import type { ErrorCode } from '../../shared/errors';
import { unavailableHostsText } from '../../shared/unavailable-hosts';
import { ExitCode, signalExitCode } from '../exit-codes';
import { interruptible } from '../interruptible';
import { openList } from '../list-source';
import { quitNow } from '../quit-now';
import { contractFlag, countFlag, idArgument, minHeadScaleFlag, terminalText } from '../flags';
import { backendOf, remoteKey, remoteProcessorFor, type BackendFlags } from './remote-backend';
import { distributedBackend, distributedDeps, distributedText, type RedisFlag } from './distributed-backend';
import { counted } from '../../shared/counted';

/** `--db` and the app config, shared by every batch command. */
export interface DbFlag extends RedisFlag {
  db?: string;
  /** Remote API key for batches on the remote backend (else PICSCAN_REMOTE_KEY). */
  key?: string;
}

/** Options of `withBatches`. */
export interface WithBatchesOptions {
  /** Starts the batch models (worker threads) before `fn`; default false. */
  withModels?: boolean;
  /** Runs after the database opens and before the models start (e.g. the batch is not running elsewhere). */
  beforeStart?: (service: BatchService) => void;
  /** The batch service's logger; default silent (the commands print their own outcome). */
  logger?: Logger;
}

/**
 * Runs `fn` over the batch service on `--db` (or the app-data database), then closes the backend.
 * The database opens first, then `beforeStart` checks, then the models: a refusal comes at once,
 * and no model worker is left to keep the process alive.
 */
export async function withBatches<T>(
  flags: DbFlag,
  fn: (open: { service: BatchService; backend: Backend }) => Promise<T>,
  { withModels = false, beforeStart, logger }: WithBatchesOptions = {},
): Promise<T> {
  const config = loadConfig({ dbPath: flags.db });
  const options = { logger, batches: { remoteProcessor: remoteProcessorFor(flags), distributed: distributedDeps(flags, config) } };
  return withBackend(config, options, async (backend) => {
    const service = backend.batches();
    beforeStart?.(service);
    // The models run in worker threads so progress output and Ctrl-C stay responsive.
    if (withModels) await backend.batchModels();
    return await fn({ service, backend });
  });
}

/** What the user does before resuming a batch that paused itself, by the error code that paused it. */
const PAUSED_BATCH_FIX: Partial<Record<ErrorCode, string>> = {
  'storage-failed': 'Free space (or fix the file)',
  unauthorized: 'Check the key (--key or PICSCAN_REMOTE_KEY)',
  'insufficient-credit': 'Top up the credit',
  'remote-failed': 'Check that the remote service is up and its base URL',
};

/** Seconds between progress lines without a terminal (`--progress-every` of batch and resume). */
export const DEFAULT_PROGRESS_EVERY_S = 5;

/** Parses `--progress-every`: a positive number of seconds (fractions allowed). */
export function progressEveryFlag(text: string): number {
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds <= 0)
    throw new AppError('invalid-parameter', `--progress-every must be a number of seconds above 0, not "${text}".`);
  return seconds;
}

/** Parses a batch id argument. */
export function parseBatchId(text: string): number {
  const id = idArgument(text);
  if (id === undefined) throw new AppError('invalid-parameter', `"${text}" is not a batch id (see picscan batches).`);
  return id;
}

interface BatchFlags extends DbFlag, BackendFlags {
  features?: string;
  details?: string;
  detect?: boolean;
  minHeadScale?: string;
  selector?: string;
  concurrency?: string;
  downloadConcurrency?: string;
  name?: string;
  format: string;
  progressEvery: string;
  json?: boolean;
}

function operationOf(o: BatchFlags): BatchOperation {
  if (o.detect) {
    const selector = o.selector === undefined ? [] : contractFlag(selectorList, o.selector, '--selector');
    return { kind: 'detect', minHeadScale: minHeadScaleFlag(o.minHeadScale), selector: selector.length > 0 ? selector : ['FRONTAL'] };
  }
  if (o.minHeadScale !== undefined || o.selector !== undefined)
    throw new AppError('invalid-parameter', '--min-head-scale and --selector need --detect.');
  return {
    kind: 'analyze',
    features: o.features === undefined ? [...VISUAL_FEATURES] : contractFlag(featuresList, o.features, '--features'),
    details: o.details === undefined ? [...DETAILS] : contractFlag(detailsList, o.details, '--details'),
  };
}

/** Human one-liner of a batch's progress. */
export function progressLine(p: BatchProgress): string {
  const c = p.counts;
  const eta = p.etaSeconds === null ? '?' : `${p.etaSeconds}s`;
  const waiting = p.unavailableHosts?.length ? `; ${terminalText(unavailableHostsText(p.unavailableHosts))}` : '';
  return `batch ${p.batchId} ${p.status}: ${c.done + c.failed + c.skipped}/${c.total} (done ${c.done}, failed ${c.failed}) ${p.imagesPerSecond} img/s, ETA ${eta}${distributedText(p)}${waiting}`;
}

/**
 * Runs a batch to its end with progress on stderr: a live bar on a TTY, a plain line every
 * `everyS` seconds otherwise. Ctrl-C pauses cleanly (a second one quits at once); exit 130, or
 * 143 for SIGTERM.
 * Exit 1 when items failed, when the batch was cancelled meanwhile (`picscan cancel` from
 * another process), or when the database refused a write (the batch is then paused).
 */
export async function followBatch(
  { service, backend }: { service: BatchService; backend: Backend },
  id: number,
  everyS: number,
  json: boolean | undefined,
): Promise<void> {
  const tty = process.stderr.isTTY === true;
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          format: ' {bar} {value}/{total} | failed {failed} | {rate} img/s | ETA {eta_formatted}{workers}',
          etaBuffer: 50,
          hideCursor: true,
          stream: process.stderr,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let lastLineMs = 0;
  const off = service.onProgress((p) => {
    if (p.batchId !== id) return;
    const c = p.counts;
    if (bar) {
      if (!bar.isActive) bar.start(c.total, 0, { failed: 0, rate: 0, workers: '' });
      bar.setTotal(c.total);
      bar.update(c.done + c.failed + c.skipped, { failed: c.failed, rate: p.imagesPerSecond, workers: distributedText(p) });
    } else if (Date.now() - lastLineMs >= everyS * 1000) {
      lastLineMs = Date.now();
      process.stderr.write(`${progressLine(p)}\n`);
    }
  });
  // Ctrl-C, or SIGTERM from a service manager or `kill`: pause cleanly (analyses in flight finish
  // and are kept; the rest stays queued), exit 130 or 143. A second signal quits at once, once the
  // model threads are out of their runs (`quitNow`); items left mid-way are re-queued on resume.
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) return void quitNow(signalExitCode(signal), () => backend.haltModels());
    interrupted = signal;
    process.stderr.write(`\nPausing batch ${id}… (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit now)\n`);
    void service.pause(id);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let summary: BatchSummary;
  try {
    summary = await service.start(id);
  } catch (err) {
    // A database that refused a write, or a service that refuses every item, paused the batch:
    // its items stay queued for a resume.
    if (!(err instanceof AppError) || err.details?.batchId !== id || !PAUSED_BATCH_FIX[err.code]) throw err;
    throw new AppError(err.code, `${err.message} ${PAUSED_BATCH_FIX[err.code]}, then continue with: picscan resume ${id}`, {
      cause: err,
      details: err.details,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    off();
    bar?.stop();
  }
  report(summary, json);
  if (summary.status === 'cancelled') {
    // Cancelled here (a second process's `picscan cancel`): the run did not finish its list.
    process.stderr.write(
      `Batch ${id} was cancelled before it finished; ${counted(summary.counts.skipped, 'item was', 'items were')} skipped.\n`,
    );
    process.exitCode = ExitCode.failed;
  } else if (interrupted || summary.status === 'paused') {
    process.stderr.write(`Batch ${id} paused; continue with: picscan resume ${id}\n`);
    process.exitCode = signalExitCode(interrupted ?? 'SIGINT');
  } else {
    process.exitCode = summary.counts.failed > 0 ? ExitCode.failed : ExitCode.ok;
  }
}

/** Prints a batch summary to stdout: text, or JSON with `--json`. */
export function report(b: BatchSummary, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(b)}\n`);
    return;
  }
  const c = b.counts;
  process.stdout.write(
    `Batch ${b.id} "${terminalText(b.name)}" ${b.status}: ${c.done} done, ${c.failed} failed, ${c.skipped} skipped, ${c.queued + c.running} left of ${c.total}.\n`,
  );
}

/** `picscan batch <list|->`: creates a batch from a URL list and runs it. */
export function registerBatch(program: Command): void {
  program
    .command('batch')
    .description('analyse every image URL of a list (text: one URL per line; CSV: a "url" column; "-" reads stdin) and store the results')
    .argument('<list>', 'list file (relative paths in it are read from its folder), or - for stdin (from the working directory)')
    .option('--db <file>', 'database file (default: the app-data database)')
    .option('--features <list>', `analyze features, comma-separated (default all: ${VISUAL_FEATURES.join(',')})`)
    .option('--details <list>', `analyze details, comma-separated (default all: ${DETAILS.join(',')})`)
    .option('--detect', 'detect faces instead of analysing')
    .option(
      '--min-head-scale <ratio>',
      `with --detect: smallest face, ${MIN_HEAD_SCALE.min}..${MIN_HEAD_SCALE.max} (default ${MIN_HEAD_SCALE.default})`,
    )
    .option('--selector <list>', `with --detect: ${SELECTORS.join(', ')} (default FRONTAL)`)
    .option(
      '--concurrency <n>',
      `concurrent analyses, ${ANALYSIS_CONCURRENCY.min}..${ANALYSIS_CONCURRENCY.max} (default: the number of cores)`,
    )
    .option('--download-concurrency <n>', `concurrent downloads, ${DOWNLOAD_CONCURRENCY.min}..${DOWNLOAD_CONCURRENCY.max} (default 16)`)
    .option('--name <name>', 'batch name (default: the list file name)')
    .option('--format <format>', 'list format: auto, txt or csv', 'auto')
    .option('--progress-every <seconds>', 'without a terminal: seconds between progress lines', String(DEFAULT_PROGRESS_EVERY_S))
    .option('--json', 'print the final summary as JSON')
    .option('--backend <kind>', 'local (the models on this machine, default) or remote (the cloud API)')
    .option('--base-url <url>', 'with --backend remote: the service address, e.g. https://api.example.com')
    .option('--method <method>', 'with --backend remote: GET or POST (default POST)')
    .option('--key <key>', 'with --backend remote: API key (prefer the PICSCAN_REMOTE_KEY environment variable)')
    .option('--redis <url>', 'run on distributed workers through this Redis (redis:// or rediss://; or PICSCAN_REDIS_URL)')
    .action(async (list: string, o: BatchFlags) => {
      const operation = operationOf(o);
      const redisUrl = o.redis;
      if (redisUrl !== undefined && o.backend !== undefined)
        throw new AppError('invalid-parameter', '--redis and --backend cannot be combined.');
      const backend = redisUrl !== undefined ? distributedBackend(redisUrl) : backendOf(o);
      if (backend.kind === 'remote') remoteKey(o);
      const analysisConcurrency = o.concurrency === undefined ? undefined : countFlag(o.concurrency, '--concurrency', ANALYSIS_CONCURRENCY);
      const downloadConcurrency =
        o.downloadConcurrency === undefined ? undefined : countFlag(o.downloadConcurrency, '--download-concurrency', DOWNLOAD_CONCURRENCY);
      const progressEveryS = progressEveryFlag(o.progressEvery);
      const input = await openList(list, o.format);
      await withBatches(
        o,
        async (open) => {
          const { service } = open;
          // Ctrl-C or SIGTERM stops the import; the half-imported batch is removed (it could not run).
          const imported = await interruptible('the import', (signal) =>
            service.create(
              input.source,
              { name: o.name ?? input.name, operation, backend, analysisConcurrency, downloadConcurrency },
              input.format,
              signal,
              { baseDir: input.baseDir },
            ),
          );
          if (!('value' in imported)) {
            process.stderr.write(
              'Import interrupted: no batch was created (the lines read so far were removed). Run the same command again.\n',
            );
            process.exitCode = imported.exitCode;
            return;
          }
          const created = imported.value;
          if (created.batch.status === 'cancelled') {
            // `picscan cancel` from another process while the list was read: nothing to run.
            report(created.batch, o.json);
            process.stderr.write(`Batch ${created.batch.id} was cancelled while its list was imported; no item was analysed.\n`);
            process.exitCode = ExitCode.failed;
            return;
          }
          process.stderr.write(
            `Batch ${created.batch.id}: ${counted(created.items, 'item')} from ${counted(created.lines, 'line')} (${counted(created.duplicates, 'duplicate')} collapsed, ${created.invalid} invalid).\n`,
          );
          await followBatch(open, created.batch.id, progressEveryS, o.json);
        },
        { withModels: backend.kind === 'local' },
      );
    });
}
