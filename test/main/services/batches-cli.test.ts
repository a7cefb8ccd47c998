import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { BatchesRepo, migrate, openDatabase } from '../../../src-main/store';
import { runPicscan } from '../../helpers/cli';
import { fixture } from '../../helpers/paths';
import { seedBatch } from '../store/seed';

const dir = mkdtempSync(join(tmpdir(), 'picscan-cli-batches-'));
const dbPath = join(dir, 'picscan.db');
const env = { PICSCAN_DATA_DIR: dir };
let batchId = 0;
let second = 0;

beforeAll(() => {
  const db = openDatabase(dbPath);
  migrate(db);
  batchId = seedBatch(db, 40, 2);
  second = seedBatch(db, 5);
  db.prepare(`UPDATE batches SET status = 'paused' WHERE id = ?`).run(second);
  db.prepare(`UPDATE items SET status = 'queued' WHERE batch_id = ? AND id IN (SELECT id FROM items WHERE batch_id = ? LIMIT 2)`).run(
    second,
    second,
  );
  db.close();
});

describe('picscan batch commands', () => {
  it('lists batches as JSON with id, name, status and counts', async () => {
    const r = await runPicscan(['batches', '--json', '--db', dbPath], { env });
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<{
      id: number;
      name: string;
      status: string;
      counts: { done: number; failed: number; total: number };
    }>;
    expect(list.map((b) => b.id)).toEqual([second, batchId]);
    expect(list[1]).toMatchObject({ name: 'seeded', status: 'queued', counts: { total: 42, done: 40, failed: 2 } });
    const text = await runPicscan(['batches', '--db', dbPath], { env });
    expect(text.stdout).toMatch(/paused\s+3\/5/);
  });

  it('exports a filtered CSV to a file', async () => {
    const out = join(dir, 'dogs.csv');
    const r = await runPicscan(
      ['export', String(batchId), '--format', 'csv', '--out', out, '--tag', 'dog', '--min-faces', '1', '--db', dbPath],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Exported 10 items/);
    const rows = parse(readFileSync(out, 'utf8'), { columns: true }) as Array<{ tags: string; face_count: string }>;
    expect(rows).toHaveLength(10);
    expect(rows.every((x) => x.tags.split('; ').includes('dog') && Number(x.face_count) >= 1)).toBe(true);
  });

  it('exports by category in any case; refuses an unknown category and an empty range, naming the fix (exit 2)', async () => {
    const exported = (args: string[]) => runPicscan(['export', String(batchId), '--out', '-', '--db', dbPath, ...args], { env });
    const animals = await exported(['--category', 'ANIMAL_']);
    expect(animals.code).toBe(0);
    const rows = parse(animals.stdout, { columns: true }) as Array<{ categories: string }>;
    expect(rows).toHaveLength(26); // the seed puts every item whose index is not a multiple of 3 in animal_
    expect(rows.every((r) => r.categories.startsWith('animal_'))).toBe(true);
    const refusals: Array<[string[], string]> = [
      [['--category', 'cat'], '"cat" is not a category; did you mean animal_cat?'],
      [
        ['--category', 'nonsense'],
        '"nonsense" is not a category; the categories are the 86 names of the taxonomy, in the groups abstract_, animal_,',
      ],
      [['--min-faces', '3', '--max-faces', '1'], '--min-faces 3 is more than --max-faces 1: no item can match.'],
      [['--min-racy', '0.8', '--max-racy', '0.2'], '--min-racy 0.8 is more than --max-racy 0.2: no item can match.'],
    ];
    for (const [args, message] of refusals) {
      const r = await exported(args);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`picscan: ${message}`);
      expect(r.code).toBe(2);
    }
  });

  it('exports NDJSON to stdout', async () => {
    const r = await runPicscan(['export', String(batchId), '--format', 'ndjson', '--out', '-', '--status', 'failed', '--db', dbPath], {
      env,
    });
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { status: string }).status),
    ).toEqual(['failed', 'failed']);
  });

  it("writes the format --out's extension names when --format is not given, and refuses a contradiction (exit 2)", async () => {
    // Before, CSV was written whatever the name: `--out results.json` held CSV.
    const exportTo = (name: string, ...args: string[]) =>
      runPicscan(['export', String(batchId), '--status', 'failed', '--out', join(dir, name), '--db', dbPath, ...args], { env });
    expect((await exportTo('failed.JSON')).code).toBe(0);
    expect((JSON.parse(readFileSync(join(dir, 'failed.JSON'), 'utf8')) as Array<{ status: string }>).map((r) => r.status)).toEqual([
      'failed',
      'failed',
    ]);
    expect((await exportTo('failed.jsonl')).code).toBe(0);
    const lines = readFileSync(join(dir, 'failed.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { status: string }).status)).toEqual(['failed', 'failed']);
    expect((await exportTo('failed.txt')).code).toBe(0);
    expect(readFileSync(join(dir, 'failed.txt'), 'utf8')).toMatch(/^url,status,/);
    expect((await exportTo('failed-json.txt', '--format', 'JSON')).code).toBe(0);
    expect(readFileSync(join(dir, 'failed-json.txt'), 'utf8')).toMatch(/^\[/);
    const clash = await exportTo('clash.csv', '--format', 'json');
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--format json does not match --out');
    expect(existsSync(join(dir, 'clash.csv'))).toBe(false);
  });

  it('cancels a paused batch', async () => {
    const r = await runPicscan(['cancel', String(second), '--json', '--db', dbPath], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: second, status: 'cancelled', counts: { skipped: 2, done: 3 } });
  });

  it('deletes a batch whose import was interrupted, which resume refuses', async () => {
    const db = openDatabase(dbPath);
    // What a crash mid-import leaves: the batch row and some items, the import never marked complete.
    const half = new BatchesRepo(db).insert({
      name: 'half',
      operation: { kind: 'analyze', features: [], details: [] },
      backend: { kind: 'local' },
    });
    db.close();
    const resumed = await runPicscan(['resume', String(half), '--db', dbPath], { env });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/not fully imported.*delete it/);
    const deleted = await runPicscan(['delete', String(half), '--db', dbPath], { env });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toMatch(new RegExp(`Deleted batch ${half} "half"`));
    const listed = JSON.parse((await runPicscan(['batches', '--json', '--db', dbPath], { env })).stdout) as Array<{ id: number }>;
    expect(listed.map((b) => b.id)).not.toContain(half);
    expect(listed.map((b) => b.id)).toContain(batchId); // the others stay
    const again = await runPicscan(['delete', String(half), '--db', dbPath], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Batch ${half} no longer exists: it was deleted.`);
  });

  it('maps errors to exit codes: bad arguments 2, unknown batch 1', async () => {
    expect((await runPicscan(['export', 'x', '--out', '-', '--db', dbPath], { env })).code).toBe(2);
    expect((await runPicscan(['export', String(batchId), '--out', '-', '--format', 'xml', '--db', dbPath], { env })).code).toBe(2);
    expect((await runPicscan(['export', String(batchId), '--out', '-', '--color', 'mauve', '--db', dbPath], { env })).code).toBe(2);
    const unwritable = await runPicscan(['export', String(batchId), '--out', join(dir, 'no', 'such', 'dir.csv'), '--db', dbPath], { env });
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/Cannot write .*dir\.csv/);
    const missing = await runPicscan(['cancel', '999', '--db', dbPath], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no batch 999/);
    const list = join(dir, 'list.txt');
    writeFileSync(list, 'http://127.0.0.1:9/a.jpg\n');
    expect((await runPicscan(['batch', list, '--detect', '--min-head-scale', '2', '--db', dbPath], { env })).code).toBe(2);
    expect((await runPicscan(['batch', join(dir, 'nope.txt'), '--db', dbPath], { env })).code).toBe(2);
  });

  it('refuses a UTF-16 list with one line asking for UTF-8 (exit 2), printing none of its bytes', async () => {
    const list = join(dir, 'unicode-text.csv');
    writeFileSync(list, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('url,name\nhttp://127.0.0.1:9/a.jpg,a\n', 'utf16le')]));
    const r = await runPicscan(['batch', list, '--db', dbPath], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('picscan: The list is UTF-16 text; save it as UTF-8 (in Excel: CSV UTF-8) and try again.\n');
  });

  it('refuses a photo given as the list in one line (exit 2), creating no batch', async () => {
    // `picscan batch photo.jpg` made a batch of the JPEG's 154 "lines", every one failed.
    const fresh = join(dir, 'photo-as-list.db');
    const r = await runPicscan(['batch', fixture('cat_chelsea.jpg'), '--db', fresh], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^picscan: The list is a JPEG image, not a text or CSV file of image URLs \(one per line\)\..*\n$/);
    expect(JSON.parse((await runPicscan(['batches', '--json', '--db', fresh], { env })).stdout)).toEqual([]);
  });

  it("reads absolute local paths in a list as file URLs, as analyze does; a relative one from the list's folder", async () => {
    // `ls /photos/*.jpg > list.txt` gave a batch of failed items: "is not a valid URL".
    const photos = mkdtempSync(join(tmpdir(), 'picscan-local list #1 '));
    const odd = join(photos, 'cat 100% #2?.jpg');
    copyFileSync(fixture('cat_chelsea.jpg'), odd);
    const list = join(dir, 'local-paths.txt');
    writeFileSync(list, `${fixture('coffee_cup.jpg')}\n${odd}\nphotos/relative.jpg\n`);
    const fresh = join(dir, 'local-paths.db');
    const r = await runPicscan(['batch', list, '--db', fresh, '--features', 'Color', '--details', ''], { env, timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(1); // one failed item
    const out = await runPicscan(['export', '1', '--db', fresh, '--format', 'ndjson', '--out', '-'], { env });
    const items = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; status: string; error: { message: string } | null });
    expect(items.map((i) => [i.url, i.status])).toEqual([
      [pathToFileURL(fixture('coffee_cup.jpg')).href, 'done'],
      [pathToFileURL(odd).href, 'done'],
      [pathToFileURL(join(dir, 'photos', 'relative.jpg')).href, 'failed'],
    ]);
    // There is no such file next to the list: the message names the path the line was read as.
    expect(items[2]!.error!.message).toBe(`The file ${join(dir, 'photos', 'relative.jpg')} does not exist.`);
  }, 240_000);

  it('refuses a --progress-every that is not a positive number of seconds (exit 2), in batch and resume', async () => {
    const list = join(dir, 'progress-list.txt');
    writeFileSync(list, 'http://127.0.0.1:9/a.jpg\n');
    for (const value of ['abc', '-1', '0', '']) {
      const r = await runPicscan(['batch', list, '--progress-every', value, '--db', dbPath], { env });
      expect(r.code, value).toBe(2);
      expect(r.stderr).toBe(`picscan: --progress-every must be a number of seconds above 0, not "${value}".\n`);
    }
    const resumed = await runPicscan(['resume', '999', '--progress-every', 'abc', '--db', dbPath], { env });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/--progress-every must be a number of seconds/);
  });
});
