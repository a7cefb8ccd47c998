import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { repoRoot } from '../../helpers/paths';
import { migrate, openDatabase, type Db } from '../../../src-main/store';
import { batchOptions, fakeProcessor, listOf, makeService, routeUniqueImages } from './support';

const N = 150;
let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

function runChild(dbPath: string, batchId: number, log: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'test/main/jobs/crash-child.ts'), dbPath, String(batchId), log],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stderr!.on('data', () => {});
  child.stdout!.on('data', () => {});
  return { child, exited: new Promise((resolve) => child.on('close', (code) => resolve(code))) };
}

async function waitForDone(db: Db, batchId: number, atLeast: number): Promise<void> {
  const stmt = db.prepare<[number], { n: number }>(`SELECT count(*) AS n FROM items WHERE batch_id = ? AND status = 'done'`);
  for (let i = 0; i < 600; i++) {
    if (stmt.get(batchId)!.n >= atLeast) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`batch never reached ${atLeast} done items`);
}

const doneShas = (db: Db, batchId: number): Set<string> =>
  new Set(
    db
      .prepare<[number], { sha256: string }>(`SELECT sha256 FROM items WHERE batch_id = ? AND status = 'done'`)
      .all(batchId)
      .map((r) => r.sha256),
  );
const logged = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('crash safety', () => {
  it('after SIGKILL mid-batch (twice), reopening finishes every item exactly once, redoing no completed item', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-crash-'));
    const dbPath = join(dir, 'picscan.db');
    const urls = await routeUniqueImages(server, N, '/k');
    const setupDb = openDatabase(dbPath);
    migrate(setupDb);
    const { batch } = await makeService(setupDb, fakeProcessor()).create(
      listOf(urls),
      batchOptions({ downloadConcurrency: 16, analysisConcurrency: 4 }),
    );
    setupDb.close();

    const watch = openDatabase(dbPath, { readonly: true });
    let before = new Set<string>();
    for (const [round, killAt] of [
      [1, 30],
      [2, 80],
    ] as const) {
      const log = join(dir, `run${round}.log`);
      const { child, exited } = runChild(dbPath, batch.id, log);
      await waitForDone(watch, batch.id, killAt);
      child.kill('SIGKILL');
      expect(await exited).toBeNull();
      // Nothing completed before this run was analysed again in it.
      expect(logged(log).filter((sha) => before.has(sha))).toEqual([]);
      before = doneShas(watch, batch.id);
      expect(before.size).toBeGreaterThanOrEqual(killAt);
    }
    const mid = watch.prepare(`SELECT count(*) AS n FROM items WHERE status IN ('fetching', 'analyzing')`).get() as { n: number };
    expect(mid.n).toBeGreaterThanOrEqual(0); // usually > 0: the kill left items mid-way

    const finalLog = join(dir, 'run3.log');
    const last = runChild(dbPath, batch.id, finalLog);
    expect(await last.exited).toBe(0);
    expect(logged(finalLog).filter((sha) => before.has(sha))).toEqual([]);

    expect(watch.prepare('SELECT status, count(*) AS n FROM items GROUP BY status').all()).toEqual([{ status: 'done', n: N }]);
    expect(watch.prepare('SELECT count(*) AS n, count(DISTINCT item_id) AS items FROM results').get()).toEqual({ n: N, items: N });
    expect(watch.prepare('SELECT status FROM batches WHERE id = ?').get(batch.id)).toEqual({ status: 'done' });
    watch.close();
  });
});
