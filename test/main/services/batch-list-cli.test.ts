import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../src-main/store';
import { runPicscan } from '../../helpers/cli';
import { fixture, repoRoot } from '../../helpers/paths';

const fast = ['--features', 'Color', '--details', ''];

describe('picscan batch with a list that cannot be read', () => {
  it('exits 2 with a one-line message naming the line, not a stack trace, and creates no batch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-cli-list-'));
    const dbPath = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    const db = openDatabase(dbPath);
    migrate(db);
    db.close();
    const cases: Array<[string, string, RegExp]> = [
      ['quote.csv', 'url,note\nhttp://127.0.0.1:9/a.jpg,"ok"\nhttp://127.0.0.1:9/b.jpg,"bad"x\n', /^picscan: Line 3: malformed CSV quote/],
      ['twice.csv', 'url;URL\nhttp://127.0.0.1:9/a.jpg;http://127.0.0.1:9/b.jpg\n', /^picscan: Line 1: the CSV list has 2 "url" columns/],
    ];
    for (const [name, text, message] of cases) {
      const list = join(dir, name);
      writeFileSync(list, text);
      const run = await runPicscan(['batch', list, '--db', dbPath], { env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    const listed = await runPicscan(['batches', '--json', '--db', dbPath], { env });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it('refuses a folder given as the list in one line (exit 2), not "unexpected error: EISDIR"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-cli-list-'));
    const dbPath = join(dir, 'picscan.db');
    const folder = join(dir, 'lists');
    mkdirSync(folder);
    const run = await runPicscan(['batch', folder, '--db', dbPath], { env: { PICSCAN_DATA_DIR: dir } });
    expect(run.stderr).toBe(`picscan: Cannot read the list ${folder}: it is a folder.\n`);
    expect(run.code).toBe(2);
    const listed = await runPicscan(['batches', '--json', '--db', dbPath], { env: { PICSCAN_DATA_DIR: dir } });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it('refuses a socket file given as the list in one line (exit 2), not a crash with a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-cli-list-'));
    const dbPath = join(dir, 'picscan.db');
    const socketPath = join(dir, 'list.sock');
    const server = createServer().listen(socketPath);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const run = await runPicscan(['batch', socketPath, '--db', dbPath], { env: { PICSCAN_DATA_DIR: dir } });
      expect(run.stderr).toBe(
        `picscan: Cannot read the list ${socketPath}: it is a socket; give the list as a file, a pipe or on standard input (-).\n`,
      );
      expect(run.code).toBe(2);
    } finally {
      server.close();
    }
  });
});

describe('picscan batch with the list on a descriptor named by path', () => {
  it('reads /dev/stdin and /dev/fd/0 when standard input is a socket (as a parent process may give it), named "stdin"', async () => {
    // Node's spawn gives the child a socket for its standard input: the kernel cannot open it by path.
    const dir = mkdtempSync(join(tmpdir(), 'picscan-cli-list-'));
    const dbPath = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    for (const [i, path] of ['/dev/stdin', '/dev/fd/0'].entries()) {
      const run = await runPicscan(['batch', path, '--db', dbPath, ...fast], { env, input: `${fixture('cat_chelsea.jpg')}\n` });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`Batch ${i + 1} "stdin" done: 1 done, 0 failed`);
    }
  });

  it('names a batch whose list is <(…), which arrives as /dev/fd/63, "pipe", not by the number', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-cli-list-'));
    const dbPath = join(dir, 'picscan.db');
    const picscan = `"${process.execPath}" bin/picscan.js batch <(printf '%s\\n' "$1") --db "$2" ${fast.map((f) => `'${f}'`).join(' ')}`;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        'bash',
        ['-c', picscan, 'bash', fixture('cat_chelsea.jpg'), dbPath],
        { cwd: repoRoot, env: { ...process.env, PICSCAN_DATA_DIR: dir } },
        (err, out, errText) => (err ? reject(new Error(`${err.message}\n${errText}`)) : resolve(out)),
      ),
    );
    expect(stdout).toMatch(/Batch 1 "pipe" done: 1 done, 0 failed/);
  });
});
