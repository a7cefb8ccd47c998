// The database file removed or replaced while `picscan batch` runs: SQLite keeps writing to the
// unlinked file and every result would vanish with the process. Real child processes, real
// SQLite files, real loopback image server.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store';
import { runPicscan, startPicscan } from '../../helpers/cli';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { seedDatabaseFile } from '../store/seed';
import { slowPngUrls } from '../../helpers/slow-pngs';
import { until } from '../../helpers/until';

const SLOW = { timeout: 240_000 };
const N = 30;
const RUN = ['--features', 'Color', '--details', '', '--concurrency', '1', '--download-concurrency', '1'];

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

/** `n` distinct PNGs, each answered after `delayMs`, so the run is still going when the file goes. */
async function slowList(dir: string, prefix: string, delayMs = 400): Promise<string> {
  const urls = await slowPngUrls(server, prefix, N, delayMs, { g: 20, b: 200 });
  const list = join(dir, 'list.txt');
  writeFileSync(list, `${urls.join('\n')}\n`);
  return list;
}

function doneCount(db: string): number {
  const conn = openDatabase(db, { readonly: true });
  try {
    return (conn.prepare(`SELECT count(*) AS n FROM items WHERE status = 'done'`).get() as { n: number }).n;
  } finally {
    conn.close();
  }
}

/** Starts a batch and waits until it has stored a few results; resolves with the running process. */
async function runningBatch(dir: string, db: string, prefix: string): Promise<ReturnType<typeof startPicscan>> {
  const list = await slowList(dir, prefix);
  const batch = startPicscan(['batch', list, '--db', db, ...RUN], { env: { PICSCAN_DATA_DIR: dir } });
  await until('the list imported', () => batch.stderrSoFar().includes('Batch 1:'));
  await until('3 results stored', () => doneCount(db) >= 3);
  return batch;
}

const removeDb = (db: string): void => ['', '-wal', '-shm'].forEach((suffix) => rmSync(`${db}${suffix}`, { force: true }));

async function expectResumedToTheEnd(db: string, dir: string): Promise<void> {
  const resumed = await runPicscan(['resume', '1', '--db', db], { env: { PICSCAN_DATA_DIR: dir } });
  expect(resumed.code).toBe(0);
  const conn = openDatabase(db, { readonly: true });
  expect(conn.prepare('SELECT status, count(*) AS n FROM items GROUP BY status').all()).toEqual([{ status: 'done', n: N }]);
  expect(conn.prepare('SELECT count(*) AS n, count(DISTINCT item_id) AS items FROM results').get()).toEqual({ n: N, items: N });
  conn.close();
}

describe('the database file goes away while a batch runs', () => {
  it('removed: the batch pauses, exit 1, its results are written back to the path, and resume finishes it', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-db-removed-'));
    const db = join(dir, 'picscan.db');
    const batch = await runningBatch(dir, db, '/removed');
    removeDb(db);
    const run = await batch.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `picscan: Batch 1 paused: the database ${db} was removed while it ran; everything it held was saved to ${db}.`,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(doneCount(db)).toBeGreaterThanOrEqual(3);
    await expectResumedToTheEnd(db, dir);
  });

  it('replaced by another database: that one is left alone, the results are saved beside it', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-db-replaced-'));
    const db = join(dir, 'picscan.db');
    const batch = await runningBatch(dir, db, '/replaced');
    removeDb(db);
    seedDatabaseFile(db, 2);
    const run = await batch.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the database ${db} was replaced while it ran; everything it held was saved to ${db}.saved-`);
    const saved = join(
      dir,
      readdirSync(dir).find((f) => f.startsWith('picscan.db.saved-'))!,
    );
    expect(run.stderr).toContain(`Continue with: picscan resume 1 --db ${saved}`);
    const other = openDatabase(db, { readonly: true });
    expect(other.prepare('SELECT name, (SELECT count(*) FROM items) AS items FROM batches').all()).toEqual([{ name: 'seeded', items: 2 }]);
    other.close();
    await expectResumedToTheEnd(saved, dir);
  });
});
