// An output that cannot take the data (the disk fills up midway; /dev/full answers every write
// with ENOSPC): one line naming the output, no stack trace; a file named by --out exits 2 like a
// path refused up front, stdout exits 1.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPicscan } from '../../helpers/cli';
import { repoRoot } from '../../helpers/paths';
import { seedDatabaseFile } from '../store/seed';

const FULL = '/dev/full';
const dir = mkdtempSync(join(tmpdir(), 'picscan-output-full-'));
const dbPath = join(dir, 'picscan.db');
const env = { PICSCAN_DATA_DIR: dir };
let batchId = 0;

beforeAll(() => {
  batchId = seedDatabaseFile(dbPath, 500);
});

/** Runs picscan with its stdout on `file`; resolves to the exit code and stderr. */
function withStdoutOn(file: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const fd = openSync(file, 'w');
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'picscan.js'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', fd, 'pipe'],
  });
  closeSync(fd);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(!existsSync(FULL))('picscan export to a full disk', () => {
  it.each(['csv', 'json', 'ndjson'])('--format %s --out <file> names the file and the reason', async (format) => {
    const r = await runPicscan(['export', String(batchId), '--format', format, '--out', FULL, '--db', dbPath], { env });
    expect(r.stderr).toBe(`picscan: Cannot write ${FULL}: the disk is full.\n`);
    expect(r.code).toBe(2);
  });

  it('--out - with stdout on a full disk says so in one line', async () => {
    const r = await withStdoutOn(FULL, ['export', String(batchId), '--out', '-', '--db', dbPath]);
    expect(r.stderr).toBe('picscan: Cannot write the standard output: the disk is full.\n');
    expect(r.code).toBe(1);
  });
});
