import type { Command } from 'commander';
import { interruptible } from '../interruptible';
import { terminalText } from '../flags';
import { stderrWarnings } from '../stderr-warnings';
import { parseBatchId, withBatches, type DbFlag } from './batch';
import { counted } from '../../shared/counted';

/**
 * `picscan delete <id>`: removes a batch with its items, results and thumbnails (cancelling it
 * first when this process runs it; refused while another process runs it). The way out of a batch
 * whose import was interrupted, as the app's Delete button is.
 */
export function registerDelete(program: Command): void {
  program
    .command('delete')
    .description('delete a batch with its items, results and thumbnails (results of other batches stay)')
    .argument('<id>', 'batch id (see picscan batches)')
    .option('--db <file>', 'database file (default: the app-data database)')
    .action(async (idText: string, o: DbFlag) => {
      const id = parseBatchId(idText);
      await withBatches(
        o,
        async ({ service }) => {
          const { name, counts } = service.get(id);
          const deleted = await interruptible(`the delete of batch ${id}`, (signal) => service.delete(id, signal));
          if (!('value' in deleted)) {
            const left = service.get(id).counts.total;
            process.stderr.write(
              `Delete of batch ${id} interrupted: ${counts.total - left} of ${counted(counts.total, 'item')} deleted, ${left} left. Finish with: picscan delete ${id}\n`,
            );
            process.exitCode = deleted.exitCode;
            return;
          }
          process.stderr.write(`Deleted batch ${id} "${terminalText(name)}" (${counted(counts.total, 'item')}).\n`);
        },
        { logger: stderrWarnings },
      );
    });
}
