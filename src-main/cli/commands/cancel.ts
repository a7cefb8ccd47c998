import type { Command } from 'commander';
import { stderrWarnings } from '../stderr-warnings';
import { parseBatchId, report, withBatches, type DbFlag } from './batch';

/** `picscan cancel <id>`: stops a batch for good; unfinished items become skipped. */
export function registerCancel(program: Command): void {
  program
    .command('cancel')
    .description('cancel a batch: items not finished are marked skipped; results so far stay')
    .argument('<id>', 'batch id (see picscan batches)')
    .option('--db <file>', 'database file (default: the app-data database)')
    .option('--json', 'print the summary as JSON')
    .action(async (idText: string, o: DbFlag & { json?: boolean }) => {
      const id = parseBatchId(idText);
      // A distributed batch's data Redis could not remove is said on stderr (stderrWarnings).
      await withBatches(o, async ({ service }) => report(await service.cancel(id), o.json), { logger: stderrWarnings });
    });
}
