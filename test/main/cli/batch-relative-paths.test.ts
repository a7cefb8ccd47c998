/**
 * `picscan batch` reads a list's relative paths as a media player reads a playlist's: against the
 * list file's folder, or the working directory for stdin (`find photos -name '*.jpg' > list.txt`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runPicscan, startPicscan } from '../../helpers/cli';
import { fixture } from '../../helpers/paths';

interface ExportedItem {
  url: string;
  status: string;
  error: { code: string; message: string } | null;
  metadata?: Record<string, string> | null;
}

const fast = ['--features', 'Color', '--details', ''];

/** A folder (with a space and a # in its name) of real small photos: photos/a.jpg, photos/2024/b b.jpg, shared/c.jpg. */
function photoFolder(): { root: string; photos: string; a: string; b: string; c: string } {
  const root = mkdtempSync(join(tmpdir(), 'picscan-relative #1 '));
  const photos = join(root, 'photos');
  mkdirSync(join(photos, '2024'), { recursive: true });
  mkdirSync(join(root, 'shared'));
  const a = join(photos, 'a.jpg');
  const b = join(photos, '2024', 'b b.jpg');
  const c = join(root, 'shared', 'c.jpg');
  copyFileSync(fixture('cat_chelsea.jpg'), a);
  copyFileSync(fixture('coffee_cup.jpg'), b);
  copyFileSync(fixture('cat_chelsea.jpg'), c);
  return { root, photos, a, b, c };
}

async function exported(db: string, batchId: number, env: NodeJS.ProcessEnv): Promise<ExportedItem[]> {
  const out = await runPicscan(['export', String(batchId), '--db', db, '--format', 'ndjson', '--out', '-'], { env });
  expect(out.code, out.stderr).toBe(0);
  return out.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ExportedItem);
}

describe('picscan batch with relative paths in the list', () => {
  it("reads them against the list file's folder (text and CSV); the items are the absolute file URLs", async () => {
    const { root, photos, a, b, c } = photoFolder();
    const env = { PICSCAN_DATA_DIR: root };
    const db = join(root, 'picscan.db');
    // The list sits with the photos; the command runs from elsewhere (the repository).
    writeFileSync(join(photos, 'list.txt'), `a.jpg\n./2024/b b.jpg\n../shared/c.jpg\nmissing.jpg\n${a}\n`);
    const r = await runPicscan(['batch', join(photos, 'list.txt'), '--db', db, ...fast], { env, timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(1); // the missing file failed
    expect(r.stderr).toContain('4 items from 5 lines (1 duplicate collapsed, 0 invalid)');
    const items = await exported(db, 1, env);
    const missing = join(photos, 'missing.jpg');
    expect(items.map((i) => [i.url, i.status])).toEqual([
      [pathToFileURL(a).href, 'done'],
      [pathToFileURL(b).href, 'done'],
      [pathToFileURL(c).href, 'done'],
      [pathToFileURL(missing).href, 'failed'],
    ]);
    expect(items[0]!.url).toMatch(/^file:\/\/\/.*picscan-relative%20%231%20[^/]*\/photos\/a\.jpg$/);
    // The failure names the path the line was read as.
    expect(items[3]!.error).toMatchObject({ code: 'file-not-found', message: `The file ${missing} does not exist.` });

    writeFileSync(join(photos, 'list.csv'), 'caption,url\na cat,a.jpg\na cup,2024/b b.jpg\n');
    const csv = await runPicscan(['batch', join(photos, 'list.csv'), '--db', db, ...fast], { env, timeoutMs: 180_000 });
    expect(csv.code, csv.stderr).toBe(0);
    expect((await exported(db, 2, env)).map((i) => [i.url, i.status, i.metadata])).toEqual([
      [pathToFileURL(a).href, 'done', { caption: 'a cat' }],
      [pathToFileURL(b).href, 'done', { caption: 'a cup' }],
    ]);
  }, 360_000);

  it('reads them against the working directory for stdin; a host-like line is a path there too', async () => {
    const { root, a, b } = photoFolder();
    const env = { PICSCAN_DATA_DIR: root };
    const db = join(root, 'picscan.db');
    // `find photos -name '*.jpg' | picscan batch -`, run in the folder above the photos.
    const input = 'photos/a.jpg\nphotos/2024/b b.jpg\nexample.com/a.jpg\n';
    const r = await runPicscan(['batch', '-', '--db', db, ...fast], { env, input, cwd: root, timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(1);
    const items = await exported(db, 1, env);
    const hostLike = join(root, 'example.com', 'a.jpg');
    expect(items.map((i) => [i.url, i.status])).toEqual([
      [pathToFileURL(a).href, 'done'],
      [pathToFileURL(b).href, 'done'],
      [pathToFileURL(hostLike).href, 'failed'],
    ]);
    expect(items[2]!.error).toMatchObject({ code: 'file-not-found', message: `The file ${hostLike} does not exist.` });
  }, 240_000);

  it("reads them against the working directory for a named pipe (<(find …)), not the pipe's folder", async () => {
    const { root, a } = photoFolder();
    const env = { PICSCAN_DATA_DIR: root };
    const db = join(root, 'picscan.db');
    const pipes = mkdtempSync(join(tmpdir(), 'picscan-relative-pipe-'));
    const fifo = join(pipes, 'list');
    execFileSync('mkfifo', [fifo]);
    const batch = startPicscan(['batch', fifo, '--db', db, ...fast], { env, cwd: root, timeoutMs: 60_000 });
    // A producer like `find photos > list &`: it writes the moment picscan opens the pipe, and exits.
    execFile('sh', ['-c', 'printf "photos/a.jpg\\n" > "$1"', 'producer', fifo]);
    const r = await batch.done;
    expect(r.code, r.stderr).toBe(0);
    expect((await exported(db, 1, env)).map((i) => [i.url, i.status])).toEqual([[pathToFileURL(a).href, 'done']]);
  }, 120_000);
});
