/** `picscan thumbnail` and `picscan export --thumbnails` as child processes on the real models. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thumbnailFileName } from '../../../src-main/services/export-thumbnails';
import { migrate, openDatabase } from '../../../src-main/store';
import { runPicscan } from '../../helpers/cli';
import { fixture } from '../../helpers/paths';
import { seedBatch } from '../store/seed';

const dir = mkdtempSync(join(tmpdir(), 'picscan-cli-thumbnail-'));
const dbPath = join(dir, 'picscan.db');
const env = { PICSCAN_DATA_DIR: dir };
let batchId = 0;
let doneIds: number[] = [];
const sources = [fixture('obama_portrait.jpg'), fixture('cheese_clipart.png'), join(dir, 'gone.jpg')];

beforeAll(() => {
  const db = openDatabase(dbPath);
  migrate(db);
  batchId = seedBatch(db, 3, 1);
  doneIds = (
    db.prepare(`SELECT id FROM items WHERE batch_id = ? AND status = 'done' ORDER BY id`).all(batchId) as Array<{ id: number }>
  ).map((r) => r.id);
  doneIds.forEach((id, k) => db.prepare('UPDATE items SET url = ? WHERE id = ?').run(sources[k], id));
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('picscan thumbnail', () => {
  it('writes a JPEG of exactly the size for a JPEG and a PNG for a PNG', async () => {
    const jpg = join(dir, 'a.jpg');
    const r = await runPicscan(['thumbnail', fixture('obama_portrait.jpg'), '--width', '150', '--height', '40', '--smart', '--out', jpg], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/150x40 JPEG, smart crop around faces/);
    expect(await sharp(jpg).metadata()).toMatchObject({ format: 'jpeg', width: 150, height: 40 });
    const png = join(dir, 'b.png');
    expect(
      (await runPicscan(['thumbnail', fixture('cheese_clipart.png'), '--width', '33', '--height', '99', '--out', png], { env })).code,
    ).toBe(0);
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 33, height: 99 });
  });

  it("writes the format --out's extension names (JPEG bytes in a .png file were refused by viewers), else the input's", async () => {
    const cases: Array<[string, string, string]> = [
      [fixture('obama_portrait.jpg'), join(dir, 'from-jpeg.png'), 'png'],
      [fixture('cheese_clipart.png'), join(dir, 'from-png.JPEG'), 'jpeg'],
      [fixture('cheese_clipart.png'), join(dir, 'from-png.thumb'), 'png'],
    ];
    for (const [source, out, format] of cases) {
      const r = await runPicscan(['thumbnail', source, '--width', '64', '--height', '48', '--out', out], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`64x48 ${format.toUpperCase()}`);
      expect(await sharp(out).metadata(), out).toMatchObject({ format, width: 64, height: 48 });
    }
  });

  it('refuses an --out named for another image format with exit 2 and writes nothing (a .gif got JPEG bytes)', async () => {
    for (const [name, format] of [
      ['t.gif', 'GIF'],
      ['t.WEBP', 'WebP'],
      ['t.tiff', 'TIFF'],
    ]) {
      const out = join(dir, name!);
      const r = await runPicscan(['thumbnail', fixture('obama_portrait.jpg'), '--width', '64', '--height', '48', '--out', out], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`picscan: Cannot write ${out} as a ${format} file: thumbnails are PNG (.png) or JPEG (.jpg, .jpeg).\n`);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('exits 2 for a bad size or a missing --out, 1 for a missing image', async () => {
    const out = join(dir, 'never.jpg');
    const zero = await runPicscan(['thumbnail', fixture('obama_portrait.jpg'), '--width', '0', '--height', '10', '--out', out], { env });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/width.*1 to 1024/);
    expect((await runPicscan(['thumbnail', fixture('obama_portrait.jpg'), '--width', '10', '--height', '10'], { env })).code).toBe(2);
    expect((await runPicscan(['thumbnail', join(dir, 'missing.jpg'), '--width', '10', '--height', '10', '--out', out], { env })).code).toBe(
      1,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('refuses an --out it cannot write with one line and exit 2, before reading the image', async () => {
    const size = ['--width', '10', '--height', '10'];
    const cases: Array<[string, RegExp]> = [
      [
        join(dir, 'no-such-folder', 't.jpg'),
        /^picscan: Cannot write .*no-such-folder\/t\.jpg: the folder .*no-such-folder does not exist\.\n$/,
      ],
      [dir, /^picscan: Cannot write .*: it is a folder\.\n$/],
      [join(fixture('obama_portrait.jpg'), 't.jpg'), /^picscan: Cannot write .*: a part of the path is a file, not a folder\.\n$/],
    ];
    for (const [out, message] of cases) {
      const r = await runPicscan(['thumbnail', fixture('obama_portrait.jpg'), ...size, '--out', out], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    // A missing image would fail with exit 1: the path is refused first.
    const both = await runPicscan(['thumbnail', join(dir, 'missing.jpg'), ...size, '--out', join(dir, 'nope', 't.jpg')], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/Cannot write .*does not exist/);
  });
});

describe('picscan export --thumbnails', () => {
  it('writes one thumbnail per done item and names it in the CSV', async () => {
    const thumbs = join(dir, 'thumbs');
    const csv = join(dir, 'out.csv');
    const r = await runPicscan(
      ['export', String(batchId), '--out', csv, '--thumbnails', thumbs, '--size', '64x48', '--smart', '--db', dbPath],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`No thumbnail for item ${doneIds[2]}`));
    const records = parse(readFileSync(csv, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(4);
    expect(Object.keys(records[0]!).at(-1)).toBe('thumbnail');
    const byUrl = new Map(records.map((rec) => [rec.url, rec]));
    const expected = [
      thumbnailFileName({ itemId: doneIds[0]!, url: sources[0]! }, 'Jpeg'),
      thumbnailFileName({ itemId: doneIds[1]!, url: sources[1]! }, 'Png'),
    ];
    expect(expected).toEqual([`${doneIds[0]}-obama_portrait.jpg`, `${doneIds[1]}-cheese_clipart.png`]);
    expect(byUrl.get(sources[0]!)!.thumbnail).toBe(expected[0]);
    expect(byUrl.get(sources[1]!)!.thumbnail).toBe(expected[1]);
    expect(byUrl.get(sources[2]!)!.thumbnail).toBe('');
    expect(records.filter((rec) => rec.status === 'failed').map((rec) => rec.thumbnail)).toEqual(['']);
    expect(readdirSync(thumbs).sort()).toEqual([...expected].sort());
    expect(await sharp(join(thumbs, expected[0]!)).metadata()).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect(await sharp(join(thumbs, expected[1]!)).metadata()).toMatchObject({ format: 'png', width: 64, height: 48 });
  });

  it('adds a thumbnail field to NDJSON, and refuses a bad or missing size', async () => {
    const r = await runPicscan(
      [
        'export',
        String(batchId),
        '--format',
        'ndjson',
        '--out',
        '-',
        '--status',
        'done',
        '--thumbnails',
        join(dir, 't2'),
        '--size',
        '20x20',
        '--db',
        dbPath,
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { itemId: number; thumbnail: string | null });
    expect(rows.map((x) => x.thumbnail !== null)).toEqual([true, true, false]);
    for (const args of [
      ['--thumbnails', join(dir, 't3'), '--size', '0x10'],
      ['--thumbnails', join(dir, 't3')],
      ['--size', '10x10'],
    ]) {
      const bad = await runPicscan(['export', String(batchId), '--out', '-', ...args, '--db', dbPath], { env });
      expect(bad.code, args.join(' ')).toBe(2);
    }
    expect(existsSync(join(dir, 't3'))).toBe(false);
  });

  it('refuses a --thumbnails folder or an --out it cannot write with one line and exit 2, before making thumbnails', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const args = ['export', String(batchId), '--size', '20x20', '--db', dbPath];
    const intoFile = await runPicscan([...args, '--out', join(dir, 'f.csv'), '--thumbnails', file], { env });
    expect(intoFile.code).toBe(2);
    expect(intoFile.stderr).toBe(`picscan: Cannot write ${file}: it is a file, not a folder.\n`);
    const underFile = await runPicscan([...args, '--out', '-', '--thumbnails', join(file, 'thumbs')], { env });
    expect(underFile.code).toBe(2);
    expect(underFile.stderr).toMatch(/^picscan: Cannot write .*a-file\/thumbs: a part of the path is a file, not a folder\.\n$/);
    const badOut = await runPicscan([...args, '--out', join(dir, 'no-such-folder', 'x.csv'), '--thumbnails', join(dir, 't4')], { env });
    expect(badOut.code).toBe(2);
    expect(badOut.stderr).toMatch(/^picscan: Cannot write .*x\.csv: the folder .*no-such-folder does not exist\.\n$/);
    expect(existsSync(join(dir, 't4'))).toBe(false);
  });
});
