// `picscan batch` when the database file cannot grow mid-batch: the process may write files only
// up to a size (RLIMIT_FSIZE, `ulimit -f`; Node ignores SIGXFSZ, so the write fails with EFBIG and
// SQLite reports an I/O error), as on a full disk. It must stop with a message and exit 1 without
// failing any item, and `picscan resume` (without the limit) must finish every item exactly once.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store';
import { runPicscan, type CliRun } from '../../helpers/cli';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { repoRoot } from '../../helpers/paths';
import { routeUniqueImages } from '../jobs/support';

const N = 150;
/** Largest file the capped run may write, in 512-byte blocks (POSIX `ulimit -f` units): 1.5 MB. */
const FILE_SIZE_LIMIT_BLOCKS = 3_000;
const COLOR_ONLY = ['--features', 'Color', '--details', '', '--json'];

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

/** Runs picscan under `sh` with a file size limit. */
function runCapped(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const startedMs = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      'sh',
      ['-c', `ulimit -f ${FILE_SIZE_LIMIT_BLOCKS} && exec "$@"`, 'sh', process.execPath, join(repoRoot, 'bin', 'picscan.js'), ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, ...env },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr, elapsedMs: Date.now() - startedMs }));
  });
}

describe('picscan batch on a database that cannot grow', () => {
  it('stops with a message and exit 1, fails no item; resume finishes every item once', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-cli-full-'));
    const env = { PICSCAN_DATA_DIR: dir };
    const dbPath = join(dir, 'picscan.db');
    const list = join(dir, 'list.txt');
    writeFileSync(list, `${(await routeUniqueImages(server, N, '/w')).join('\n')}\n`);

    const capped = await runCapped(['batch', list, '--db', dbPath, ...COLOR_ONLY], env);
    expect(capped.code, capped.stderr).toBe(1);
    expect(capped.stderr).toMatch(/Batch 1 paused: The database .*picscan\.db cannot be written: I\/O error/);
    expect(capped.stderr).toMatch(/none was marked failed.*then continue with: picscan resume 1/);
    expect(capped.stderr).not.toMatch(/\n\s+at /);

    const db = openDatabase(dbPath);
    const counts = (): Record<string, number> =>
      Object.fromEntries(
        db
          .prepare<[], { status: string; n: number }>('SELECT status, count(*) AS n FROM items GROUP BY status')
          .all()
          .map((r) => [r.status, r.n]),
      );
    const afterError = counts();
    expect(afterError.failed ?? 0).toBe(0);
    expect(afterError.done ?? 0).toBeLessThan(N);

    const resumed = await runPicscan(['resume', '1', '--db', dbPath, '--json'], { env, timeoutMs: 240_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'done', counts: { done: N, failed: 0 } });
    expect(counts()).toEqual({ done: N });
    expect(db.prepare('SELECT count(*) AS n, count(DISTINCT item_id) AS items FROM results').get()).toEqual({ n: N, items: N });
    db.close();
  });
});
