// Ctrl-C or SIGTERM during `picscan delete` of a large batch: a real child process on a real
// database file, stopped part way through.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchesRepo, ItemsRepo, migrate, openDatabase } from '../../../src-main/store';
import { runPicscan, startPicscan } from '../../helpers/cli';
import { ANALYZE_ALL } from '../jobs/support';
import { until } from '../../helpers/until';

const SLOW = { timeout: 120_000 };
/** Enough items that the delete (200 a chunk) takes seconds. */
const ITEMS = 400_000;

function seedLargeBatch(path: string): void {
  const db = openDatabase(path);
  migrate(db);
  const batchId = new BatchesRepo(db).insert({ name: 'large', operation: ANALYZE_ALL, backend: { kind: 'local' } });
  const items = new ItemsRepo(db);
  db.transaction(() => {
    for (let from = 0; from < ITEMS; from += 5_000) {
      items.insertMany(
        batchId,
        Array.from({ length: 5_000 }, (_, k) => ({
          line: from + k + 1,
          url: `http://img.test/${from + k}.jpg`,
          metadata: null,
          error: null,
        })),
      );
    }
  })();
  new BatchesRepo(db).markImported(batchId);
  db.close();
}

const itemCount = (path: string): number => {
  const db = openDatabase(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('picscan delete interrupted', () => {
  it('kill -9: the batch left shows as being deleted, resume refuses to run what is left, delete finishes', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-delete-killed-'));
    const db = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    seedLargeBatch(db);
    const del = startPicscan(['delete', '1', '--db', db], { env });
    await until('some items deleted', () => itemCount(db) < ITEMS - 10_000);
    del.child.kill('SIGKILL');
    await del.done;
    const left = itemCount(db);
    expect(left).toBeGreaterThan(0);

    const listed = await runPicscan(['batches', '--db', db, '--json'], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: 1, unfinished: 'delete', counts: { total: left } }]);
    const table = await runPicscan(['batches', '--db', db], { env });
    expect(table.stdout).toMatch(/^\s+1 {2}deleting /m);
    expect(table.stdout).toContain(`Batch 1: a delete did not finish (${left} items left); finish with: picscan delete 1`);

    const resumed = await runPicscan(['resume', '1', '--db', db], { env });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(
      `Batch 1 is being deleted (a delete of it did not finish, ${left} items left); finish with: picscan delete 1`,
    );
    expect(itemCount(db)).toBe(left); // nothing ran, nothing changed

    const again = await runPicscan(['delete', '1', '--db', db], { env });
    expect(again.code).toBe(0);
    expect(itemCount(db)).toBe(0);
    expect(JSON.parse((await runPicscan(['batches', '--db', db, '--json'], { env })).stdout)).toEqual([]);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: exit ${code}, one line saying how far it got and how to finish; delete again finishes`, SLOW, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'picscan-delete-interrupted-'));
      const db = join(dir, 'picscan.db');
      const env = { PICSCAN_DATA_DIR: dir };
      seedLargeBatch(db);
      const del = startPicscan(['delete', '1', '--db', db], { env });
      await until('some items deleted', () => itemCount(db) < ITEMS - 10_000);
      del.child.kill(signal);
      const run = await del.done;
      expect(run.code).toBe(code);
      const left = itemCount(db);
      expect(left).toBeGreaterThan(0);
      expect(run.stderr).toContain(
        `Delete of batch 1 interrupted: ${ITEMS - left} of ${ITEMS} items deleted, ${left} left. Finish with: picscan delete 1`,
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);

      const again = await runPicscan(['delete', '1', '--db', db], { env });
      expect(again.code).toBe(0);
      expect(itemCount(db)).toBe(0);
      expect(JSON.parse((await runPicscan(['batches', '--db', db, '--json'], { env })).stdout)).toEqual([]);
    });
  }
});
