// `picscan serve` resumes on start the batches a crash left running, and only its own: a real `picscan batch`
// killed with SIGKILL mid-run, then a real `picscan serve` on the same database file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store';
import { runPicscan, startPicscan } from '../../helpers/cli';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { slowPngUrls } from '../../helpers/slow-pngs';
import { until } from '../../helpers/until';

const SLOW = { timeout: 240_000 };
const N = 40;

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

describe('picscan serve after a crash', () => {
  it('resumes a batch whose run was killed (stored running, no live process) and finishes every item once', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-serve-resume-'));
    const db = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    const list = join(dir, 'list.txt');
    writeFileSync(list, `${(await slowPngUrls(server, '/crash', N, 150)).join('\n')}\n`);

    const batch = startPicscan(
      ['batch', list, '--db', db, '--features', 'Color', '--details', '', '--concurrency', '1', '--download-concurrency', '1'],
      { env },
    );
    await until('the list imported', () => (batch.stderrSoFar().includes('Batch 1:') ? true : undefined));
    const watch = openDatabase(db, { readonly: true });
    const done = (): number => (watch.prepare(`SELECT count(*) AS n FROM items WHERE status = 'done'`).get() as { n: number }).n;
    await until('3 items done', () => (done() >= 3 ? true : undefined));
    batch.child.kill('SIGKILL');
    await batch.done;
    expect(done()).toBeLessThan(N);

    const serve = startPicscan(['serve', '--http', '--port', '0', '--db', db], { env, timeoutMs: 200_000 });
    try {
      await until('the batch done after serve started', () =>
        (watch.prepare('SELECT status FROM batches').get() as { status: string }).status === 'done' ? true : undefined,
      );
    } finally {
      serve.child.kill('SIGTERM');
      await serve.done;
    }
    expect(watch.prepare('SELECT status, count(*) AS n FROM items GROUP BY status').all()).toEqual([{ status: 'done', n: N }]);
    expect(watch.prepare('SELECT count(*) AS n, count(DISTINCT item_id) AS items FROM results').get()).toEqual({ n: N, items: N });
    watch.close();
    const listed = await runPicscan(['batches', '--db', db, '--json'], { env });
    expect(JSON.parse(listed.stdout)).toMatchObject([{ status: 'done' }]);
  });

  it('does not resume on start a batch another process was running when it stopped, and its user then paused', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-serve-other-'));
    const db = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    const list = join(dir, 'list.txt');
    writeFileSync(list, `${(await slowPngUrls(server, '/other', N, 1_000)).join('\n')}\n`);

    const batch = startPicscan(
      ['batch', list, '--db', db, '--features', 'Color', '--details', '', '--concurrency', '1', '--download-concurrency', '1'],
      { env },
    );
    await until('the list imported', () => (batch.stderrSoFar().includes('Batch 1:') ? true : undefined));
    const first = startPicscan(['serve', '--http', '--port', '0', '--db', db], { env });
    await until('serve listening', () => (first.stdoutSoFar().includes('listening') ? true : undefined));
    first.child.kill('SIGTERM');
    expect((await first.done).code).toBe(0);
    batch.child.kill('SIGINT'); // the user pauses their batch
    expect((await batch.done).code).toBe(130);

    const watch = openDatabase(db, { readonly: true });
    const state = (): unknown => watch.prepare('SELECT status, (SELECT count(*) FROM batch_leases) AS leases FROM batches').get();
    expect(state()).toEqual({ status: 'paused', leases: 0 });
    const second = startPicscan(['serve', '--http', '--port', '0', '--db', db], { env });
    try {
      await until('serve listening', () => (second.stdoutSoFar().includes('listening') ? true : undefined));
      await new Promise((r) => setTimeout(r, 2_000));
      expect(state()).toEqual({ status: 'paused', leases: 0 });
    } finally {
      second.child.kill('SIGTERM');
      await second.done;
      watch.close();
    }
  });

  it('resumes on start what two servers on one data folder were running when each was stopped', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-serve-two-'));
    const db = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    // Opened once the first batch has made the file.
    let watch: ReturnType<typeof openDatabase> | undefined;
    const reader = (): ReturnType<typeof openDatabase> => (watch ??= openDatabase(db, { readonly: true }));
    const doneIn = (id: number): number =>
      (reader().prepare(`SELECT count(*) AS n FROM items WHERE batch_id = ? AND status = 'done'`).get(id) as { n: number }).n;
    const statusOf = (id: number): string =>
      (reader().prepare('SELECT status FROM batches WHERE id = ?').get(id) as { status: string }).status;
    const serves: ReturnType<typeof startPicscan>[] = [];
    try {
      // Each server takes over one crashed batch: serve resumes on start only what no live process holds.
      for (const id of [1, 2]) {
        const list = join(dir, `list-${id}.txt`);
        writeFileSync(list, `${(await slowPngUrls(server, `/two-${id}`, N * 5, 150)).join('\n')}\n`);
        const batch = startPicscan(
          ['batch', list, '--db', db, '--features', 'Color', '--details', '', '--concurrency', '1', '--download-concurrency', '1'],
          { env },
        );
        await until(`batch ${id} imported`, () => (batch.stderrSoFar().includes(`Batch ${id}:`) ? true : undefined));
        await until(`batch ${id} under way`, () => (doneIn(id) >= 2 ? true : undefined));
        batch.child.kill('SIGKILL');
        await batch.done;
        const serve = startPicscan(['serve', '--http', '--port', '0', '--db', db], { env, timeoutMs: 200_000 });
        serves.push(serve);
        const before = doneIn(id);
        await until(`serve ${id} runs batch ${id}`, () => (doneIn(id) > before + 1 ? true : undefined));
      }
      for (const serve of serves.splice(0)) {
        serve.child.kill('SIGTERM');
        expect((await serve.done).code).toBe(0);
      }
      expect([statusOf(1), statusOf(2)]).toEqual(['paused', 'paused']);

      // Before, the second server's note replaced the first's: batch 1 stayed paused.
      const third = startPicscan(['serve', '--http', '--port', '0', '--db', db], { env, timeoutMs: 200_000 });
      serves.push(third);
      const at = [doneIn(1), doneIn(2)];
      await until('both batches run again', () => (doneIn(1) > at[0]! && doneIn(2) > at[1]! ? true : undefined));
    } finally {
      for (const serve of serves) {
        serve.child.kill('SIGTERM');
        await serve.done;
      }
      watch?.close();
    }
  });
});
