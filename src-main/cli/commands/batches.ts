import type { Command } from 'commander';
import type { BatchSummary } from '../../shared/batch';
import { terminalText } from '../flags';
import { withBatches, type DbFlag } from './batch';

const row = (b: BatchSummary): string => {
  const c = b.counts;
  return `${String(b.id).padStart(5)}  ${b.status.padEnd(9)}  ${`${c.done}/${c.total}`.padStart(15)}  ${String(c.failed).padStart(7)}  ${b.createdAt.slice(0, 19).replace('T', ' ')}  ${terminalText(b.name)}`;
};

/** `picscan batches [--json]`: every batch with its status and counts, newest first. */
export function registerBatches(program: Command): void {
  program
    .command('batches')
    .description('list batches with status and counts, newest first')
    .option('--db <file>', 'database file (default: the app-data database)')
    .option('--json', 'print [{ id, name, status, counts, … }] as JSON')
    .action(async (o: DbFlag & { json?: boolean }) => {
      await withBatches(o, async ({ service }) => {
        const list = service.list();
        if (o.json) {
          process.stdout.write(
            `${JSON.stringify(
              list.map(({ id, name, status, counts, operation, createdAt, finishedAt }) => ({
                id,
                name,
                status,
                counts,
                operation,
                createdAt,
                finishedAt,
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
      });
    });
}
