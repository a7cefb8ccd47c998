import type { Command } from 'commander';
import { DEFAULT_PROGRESS_EVERY_S, followBatch, parseBatchId, progressEveryFlag, withBatches, type DbFlag } from './batch';
import { counted } from '../../shared/counted';

/**
 * `picscan resume <id>`: continues a paused or interrupted batch (items left mid-way are redone);
 * with `--retry-failed`, also a finished one's failed items.
 * Refused (exit 1, naming the process) while another process runs the batch.
 */
export function registerResume(program: Command): void {
  program
    .command('resume')
    .description('continue a paused or interrupted batch')
    .argument('<id>', 'batch id (see picscan batches)')
    .option('--db <file>', 'database file (default: the app-data database)')
    .option('--progress-every <seconds>', 'without a terminal: seconds between progress lines', String(DEFAULT_PROGRESS_EVERY_S))
    .option('--json', 'print the final summary as JSON')
    .option('--key <key>', 'API key for a batch on the remote backend (prefer PICSCAN_REMOTE_KEY)')
    .option('--redis <url>', 'Redis URL for a distributed batch (needed when it has a password; or PICSCAN_REDIS_URL)')
    .option('--retry-failed', 'first put the failed items back in the queue (not lines the import refused), e.g. after a host was down')
    .action(async (idText: string, o: DbFlag & { progressEvery: string; json?: boolean; retryFailed?: boolean }) => {
      const id = parseBatchId(idText);
      const progressEveryS = progressEveryFlag(o.progressEvery);
      await withBatches(o, (open) => followBatch(open, id, progressEveryS, o.json), {
        withModels: true,
        beforeStart: (service) => {
          if (!o.retryFailed) return void service.checkStartable(id);
          const requeued = service.requeueFailed(id);
          process.stderr.write(`Batch ${id}: ${counted(requeued, 'failed item')} queued again.\n`);
        },
      });
    });
}
