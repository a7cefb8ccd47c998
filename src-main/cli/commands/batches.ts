import type { Command } from 'commander';
import type { BatchSummary } from '../../shared/batch';
import { terminalText } from '../flags';
import { withBatches, type DbFlag } from './batch';
import { counted } from '../../shared/counted';

/** A batch that cannot run shows why in place of its status: its counts are not a whole list's. */
const UNFINISHED: Record<NonNullable<BatchSummary['unfinished']>, string> = { import: 'partial', delete: 'deleting' };

const row = (b: BatchSummary): string => {
  const c = b.counts;
  const status = b.unfinished ? UNFINISHED[b.unfinished] : b.status;
  return `${String(b.id).padStart(5)}  ${status.padEnd(9)}  ${`${c.done}/${c.total}`.padStart(15)}  ${String(c.failed).padStart(7)}  ${b.createdAt.slice(0, 19).replace('T', ' ')}  ${terminalText(b.name)}`;
};

/** The line under the table for a batch that cannot run: what happened and the way out. */
const note = (b: BatchSummary): string =>
  b.unfinished === 'delete'
    ? `Batch ${b.id}: a delete did not finish (${counted(b.counts.total, 'item')} left); finish with: picscan delete ${b.id}`
    : `Batch ${b.id}: its list was not fully imported (the import was interrupted, or is still going on); it cannot run. Delete it and create it again.`;

/** `picscan batches [--json]`: every batch with its status and counts, newest first. */
export function registerBatches(program: Command): void {
  program
    .command('batches')
    .description('list batches with status and counts, newest first')
    .option('--db <file>', 'database file (default: the app-data database)')
    .option('--json', 'print [{ id, name, status, counts, …, unfinished? }] as JSON')
    .action(async (o: DbFlag & { json?: boolean }) => {
      await withBatches(o, async ({ service }) => {
        const list = service.list();
        if (o.json) {
          process.stdout.write(
            `${JSON.stringify(
              list.map(({ id, name, status, counts, operation, createdAt, finishedAt, unfinished }) => ({
                id,
                name,
                status,
                counts,
                operation,
                createdAt,
                finishedAt,
                ...(unfinished ? { unfinished } : {}),
              })),
              null,
              2,
            )}\n`,
          );
          return;
        }
        if (list.length === 0) {
          process.stdout.write('No batches yet. Start one with: picscan batch <list>\n');
          return;
        }
        process.stdout.write(
          `${'id'.padStart(5)}  ${'status'.padEnd(9)}  ${'done/total'.padStart(15)}  ${'failed'.padStart(7)}  ${'created (UTC)'.padEnd(19)}  name\n`,
        );
        for (const b of list) process.stdout.write(`${row(b)}\n`);
        for (const b of list.filter((x) => x.unfinished)) process.stdout.write(`${note(b)}\n`);
      });
    });
}
