// Several real `picscan` processes on one database file: two batches at once, a second run of
// a running batch, and a cancel from another process. Real models (Color only, to stay quick),
// real loopback image server, real SQLite file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src-main/store';
import { runPicscan, startPicscan, type CliRun } from '../../helpers/cli';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { until } from '../../helpers/until';

const SLOW = { timeout: 300_000 };
/** Cheapest real operation: colour statistics only, no names from galleries. */
const COLOR_ONLY = ['--features', 'Color', '--details', '', '--progress-every', '1', '--json'];

let server: FixtureServer;
const dir = mkdtempSync(join(tmpdir(), 'picscan-batch-processes-'));
const env = { PICSCAN_DATA_DIR: dir };

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

/**
 * Routes `n` PNGs under `prefix` (each answer delayed `delayMs`) and writes their list. With
 * `distinct` < n, URLs repeat the same `distinct` images, so most items reuse a stored result.
 */
async function imageList(name: string, n: number, prefix: string, delayMs = 0, distinct = n): Promise<string> {
  const urls: string[] = [];
  for (let i = 0; i < n; i++) {
    const shade = i % distinct;
    const body = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: shade % 256, g: 40, b: prefix.length * 20 } },
    })
      .png()
      .toBuffer();
    server.route(`${prefix}/${i}.png`, { body, delayMs, headers: { 'content-type': 'image/png' } });
    urls.push(server.url(`${prefix}/${i}.png`));
  }
  const file = join(dir, `${name}.txt`);
  writeFileSync(file, `${urls.join('\n')}\n`);
  return file;
}

const statusCounts = (db: Db, batchId: number): Record<string, number> =>
  Object.fromEntries(
    db
      .prepare<[number], { status: string; n: number }>('SELECT status, count(*) AS n FROM items WHERE batch_id = ? GROUP BY status')
      .all(batchId)
      .map((r) => [r.status, r.n]),
  );

const summaryOf = (r: CliRun): { id: number; status: string } =>
  JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { id: number; status: string };

describe('two processes on one database', () => {
  it('two batches at once, sharing results, both end with every item done', SLOW, async () => {
    const dbPath = join(dir, 'two.db');
    const N = 120;
    // Few distinct images: most items copy a stored result (a read, then writes), while the
    // other process writes too; a lock there must be waited for, never fail the item.
    const list = await imageList('shared', N, '/shared', 0, 4);
    const [a, b] = await Promise.all([
      runPicscan(['batch', list, '--db', dbPath, '--name', 'a', ...COLOR_ONLY], { env, timeoutMs: 240_000 }),
      runPicscan(['batch', list, '--db', dbPath, '--name', 'b', ...COLOR_ONLY], { env, timeoutMs: 240_000 }),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const db = openDatabase(dbPath);
    for (const s of [summaryOf(a), summaryOf(b)]) {
      expect(s.status).toBe('done');
      expect(statusCounts(db, s.id)).toEqual({ done: N });
    }
    db.close();
  });

  it('a second run of a running batch is refused, naming the process; the first finishes', SLOW, async () => {
    const dbPath = join(dir, 'lease.db');
    const N = 40; // × 600 ms per image / 2 downloads at a time: a run of about 12 s
    const list = await imageList('slow', N, '/slow', 600);
    const first = startPicscan(['batch', list, '--db', dbPath, '--download-concurrency', '2', ...COLOR_ONLY], { env, timeoutMs: 240_000 });
    const batchId = Number(await until('the batch to be created', () => /Batch (\d+):/.exec(first.stderrSoFar())?.[1]));
    const watch = openDatabase(dbPath, { readonly: true });
    await until('the first item done', () => ((statusCounts(watch, batchId).done ?? 0) > 0 ? true : undefined));
    const second = await runPicscan(['resume', String(batchId), '--db', dbPath], { env, timeoutMs: 60_000 });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(`Batch ${batchId} is already running in process ${first.child.pid} on \\S+ \\(started \\d{4}-\\d\\d-\\d\\dT`),
    );
    const done = await first.done;
    expect(done.code, done.stderr).toBe(0);
    expect(statusCounts(watch, batchId)).toEqual({ done: N });
    watch.close();
  });

  it('a cancel from another process ends the running batch as cancelled, exit 1', SLOW, async () => {
    const dbPath = join(dir, 'cancel.db');
    const N = 60;
    const list = await imageList('cancel', N, '/cancel', 200);
    const run = startPicscan(['batch', list, '--db', dbPath, '--download-concurrency', '2', ...COLOR_ONLY], { env, timeoutMs: 240_000 });
    const batchId = Number(await until('the batch to be created', () => /Batch (\d+):/.exec(run.stderrSoFar())?.[1]));
    const watch = openDatabase(dbPath, { readonly: true });
    await until('three items done', () => ((statusCounts(watch, batchId).done ?? 0) >= 3 ? true : undefined));
    const cancel = await runPicscan(['cancel', String(batchId), '--db', dbPath, '--json'], { env, timeoutMs: 60_000 });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(JSON.parse(cancel.stdout)).toMatchObject({ id: batchId, status: 'cancelled' });
    const ended = await run.done;
    expect(ended.code).toBe(1);
    expect(ended.stderr).toMatch(new RegExp(`Batch ${batchId} was cancelled`));
    expect(summaryOf(ended).status).toBe('cancelled');
    const counts = statusCounts(watch, batchId);
    expect(counts.skipped).toBeGreaterThan(0);
    expect(counts.queued ?? 0).toBe(0);
    expect(counts.failed ?? 0).toBe(0);
    expect((counts.done ?? 0) + counts.skipped!).toBe(N);
    expect(watch.prepare('SELECT status FROM batches WHERE id = ?').get(batchId)).toEqual({ status: 'cancelled' });
    watch.close();
  });
});
