// Ctrl-C, SIGTERM or `picscan cancel` while `picscan batch` imports a long list: real child processes on a real
// database file. The half-imported batch (which `resume` refuses) must not be left behind.
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, writeFileSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store';
import { runPicscan, startPicscan, type CliProcess } from '../../helpers/cli';
import { until } from '../../helpers/until';

const SLOW = { timeout: 120_000 };
/** Long enough that the import is still going when the signal comes (≈ 100 000 lines a second). */
const LINES = 600_000;

const dir = mkdtempSync(join(tmpdir(), 'picscan-import-interrupted-'));
const env = { PICSCAN_DATA_DIR: dir };
const list = join(dir, 'big.txt');
writeFileSync(list, Array.from({ length: LINES }, (_, i) => `http://img.test/${i}.jpg\n`).join(''));

const itemCount = (db: string): number => {
  if (!existsSync(db)) return 0;
  const conn = openDatabase(db, { readonly: true });
  try {
    return (conn.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'items'`).get() as { n: number }).n === 0
      ? 0
      : (conn.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  } finally {
    conn.close();
  }
};

/** `picscan batch` reading a named pipe that got 30 000 lines and stays open (the import waits for more). */
function importFromOpenPipe(db: string, name: string): { batch: CliProcess; writer: WriteStream } {
  const fifo = join(dir, name);
  execFileSync('mkfifo', [fifo]);
  const batch = startPicscan(['batch', fifo, '--db', db, '--features', 'Color', '--details', ''], { env });
  const writer = createWriteStream(fifo);
  writer.write(Array.from({ length: 30_000 }, (_, i) => `http://img.test/${i}.jpg\n`).join(''));
  return { batch, writer };
}

describe('a signal during the import of a list', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: exit ${code}, one line saying no batch was created, and no half batch left`, SLOW, async () => {
      const db = join(dir, `${signal}.db`);
      const batch = startPicscan(['batch', list, '--db', db, '--features', 'Color', '--details', ''], { env });
      await until('part of the list imported', () => itemCount(db) >= 20_000);
      expect(batch.stderrSoFar()).not.toContain('items from'); // still importing
      batch.child.kill(signal);
      const run = await batch.done;
      expect(run.code).toBe(code);
      expect(run.stderr).toContain('Import interrupted: no batch was created');
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(itemCount(db)).toBe(0);
      const listed = await runPicscan(['batches', '--db', db, '--json'], { env });
      expect(JSON.parse(listed.stdout)).toEqual([]);
    });
  }

  it('kill -9: the half-imported batch lists as partial with the way out, never as a whole queued list', SLOW, async () => {
    const db = join(dir, 'killed.db');
    const batch = startPicscan(['batch', list, '--db', db, '--features', 'Color', '--details', ''], { env });
    await until('part of the list imported', () => itemCount(db) >= 20_000);
    expect(batch.stderrSoFar()).not.toContain('items from'); // still importing
    batch.child.kill('SIGKILL');
    await batch.done;
    const left = itemCount(db);
    expect(left).toBeLessThan(LINES);

    const listed = await runPicscan(['batches', '--db', db, '--json'], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: 1, unfinished: 'import', counts: { total: left } }]);
    const table = await runPicscan(['batches', '--db', db], { env });
    expect(table.stdout).toMatch(/^\s+1 {2}partial /m);
    expect(table.stdout).toContain(
      'Batch 1: its list was not fully imported (the import was interrupted, or is still going on); it cannot run. Delete it and create it again.',
    );
    const resumed = await runPicscan(['resume', '1', '--db', db], { env });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('Batch 1 was not fully imported');
    expect(itemCount(db)).toBe(left);
  });

  it('SIGINT while the list comes through a named pipe that sends nothing more: exit 130 at once, no half batch', SLOW, async () => {
    // The file stream read the pipe on libuv's thread pool and could not stop a read waiting for
    // input: "Stopping the import…", then nothing until the producer wrote again.
    const db = join(dir, 'stalled-pipe.db');
    const { batch, writer } = importFromOpenPipe(db, 'stalled.txt');
    // All 30 000 lines read: five chunks stored, the sixth waits for more input.
    await until('the lines sent imported', () => itemCount(db) >= 25_000);
    batch.child.kill('SIGINT');
    const run = await batch.done;
    writer.destroy();
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('Import interrupted: no batch was created');
    expect(itemCount(db)).toBe(0);
  });

  it('picscan delete from another process while the list is imported: refused naming the import, nothing removed', SLOW, async () => {
    // The importer held no lock: the delete removed the items imported so far, reported a stale
    // count, and the importer went on filling a batch being deleted. The list comes through a
    // named pipe kept open, so the import is still going, however slow the machine, when the
    // delete runs.
    const db = join(dir, 'delete.db');
    const { batch, writer } = importFromOpenPipe(db, 'open-list.txt');
    await until('part of the list imported', () => itemCount(db) >= 20_000);
    const deleted = await runPicscan(['delete', '1', '--db', db], { env });
    expect(deleted.code).toBe(1);
    expect(deleted.stderr).toMatch(/^picscan: Batch 1 is still having its list imported by process \d+ on /);
    expect(itemCount(db)).toBeGreaterThanOrEqual(20_000);
    expect(batch.stderrSoFar()).not.toContain('items from');
    batch.child.kill('SIGINT');
    const run = await batch.done;
    writer.destroy();
    expect(run.stderr).toContain('Import interrupted: no batch was created');
    expect(itemCount(db)).toBe(0);
  });

  it('picscan cancel from another process: the batch ends cancelled with nothing left queued, exit 1', SLOW, async () => {
    const db = join(dir, 'cancel.db');
    const batch = startPicscan(['batch', list, '--db', db, '--features', 'Color', '--details', ''], { env });
    await until('part of the list imported', () => itemCount(db) >= 20_000);
    const cancel = await runPicscan(['cancel', '1', '--db', db], { env });
    expect(cancel.code).toBe(0);
    const run = await batch.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Batch 1 was cancelled while its list was imported; no item was analysed.');
    expect(run.stderr).not.toContain('cannot be resumed');
    const conn = openDatabase(db, { readonly: true });
    expect(conn.prepare(`SELECT status, count(*) AS n FROM items GROUP BY status`).all()).toEqual([{ status: 'skipped', n: LINES }]);
    conn.close();
  });
});
