// A database that refuses a write mid-batch (SQLITE_FULL: the file reached its size limit, as
// on a full disk) pauses the batch: no item is failed, and a resume completes every item once.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../src-main/store';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { repoRoot } from '../../helpers/paths';
import { batchOptions, fakeProcessor, listOf, makeService, routeUniqueImages } from './support';

const N = 120;
/** Pages (4 KiB) the capped run may add: room for some results (with thumbnails), not all. */
const EXTRA_PAGES = 12;

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

function runChild(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/main/jobs/full-db-child.ts'), ...args], {
      cwd: repoRoot,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const logged = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('a write error mid-batch', () => {
  it('pauses the batch with a clear error, fails no item, and resume completes every item exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-full-'));
    const dbPath = join(dir, 'picscan.db');
    const urls = await routeUniqueImages(server, N, '/f');
    const setup = openDatabase(dbPath);
    migrate(setup);
    const { batch } = await makeService(setup, fakeProcessor()).create(listOf(urls), batchOptions({ analysisConcurrency: 4 }));
    setup.pragma('wal_checkpoint(TRUNCATE)'); // the cap counts the main file's pages
    setup.close();

    const full = await runChild([dbPath, String(batch.id), join(dir, 'run1.log'), String(EXTRA_PAGES)]);
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(
      new RegExp(`^storage-failed: Batch ${batch.id} paused: The database .*picscan\\.db cannot grow: the disk is full`),
    );

    const db = openDatabase(dbPath);
    const counts = (): Record<string, number> =>
      Object.fromEntries(
        db
          .prepare<[], { status: string; n: number }>('SELECT status, count(*) AS n FROM items GROUP BY status')
          .all()
          .map((r) => [r.status, r.n]),
      );
    const afterFull = counts();
    expect(afterFull.failed ?? 0).toBe(0);
    expect(afterFull.done).toBeGreaterThan(0);
    expect(afterFull.done).toBeLessThan(N);
    expect(db.prepare('SELECT status FROM batches WHERE id = ?').get(batch.id)).toEqual({ status: 'paused' });
    const doneBefore = new Set(
      db
        .prepare<[], { sha256: string }>(`SELECT sha256 FROM items WHERE status = 'done'`)
        .all()
        .map((r) => r.sha256),
    );

    const resumeLog = join(dir, 'run2.log');
    const resumed = await runChild([dbPath, String(batch.id), resumeLog, '0']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'done', counts: { done: N, failed: 0 } });
    expect(counts()).toEqual({ done: N });
    expect(db.prepare('SELECT count(*) AS n, count(DISTINCT item_id) AS items FROM results').get()).toEqual({ n: N, items: N });
    // Nothing stored before the error was analysed again.
    expect(logged(resumeLog).filter((sha) => doneBefore.has(sha))).toEqual([]);
    db.close();
  });
});
