import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../src-main/store';
import { runPicscan } from '../../helpers/cli';

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
});
