// An export cut short (Ctrl-C, a service manager's SIGTERM) must not leave a truncated file that
// looks finished, nor replace the complete export the user already had under that name: the
// export is written beside the target and renamed over it only when complete.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPicscan, startPicscan } from '../../helpers/cli';
import { seedDatabaseFile } from '../store/seed';

const dir = mkdtempSync(join(tmpdir(), 'picscan-export-interrupted-'));
const dbPath = join(dir, 'picscan.db');
const env = { PICSCAN_DATA_DIR: dir };
const ROWS = 25_000; // several seconds of CSV: long enough to stop midway
let batchId = 0;

beforeAll(() => {
  batchId = seedDatabaseFile(dbPath, ROWS);
}, 120_000);

/** A folder of its own for the output, so anything left beside the export shows. */
function outFolder(name: string): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  return folder;
}

/** Starts an export to `out`, stops it with `signal` once its data is being written, and resolves to how it ended. */
async function exportStoppedBy(out: string, signal: 'SIGINT' | 'SIGTERM'): Promise<{ signal: NodeJS.Signals | null; code: number | null }> {
  const run = startPicscan(['export', String(batchId), '--out', out, '--db', dbPath], { env, timeoutMs: 120_000 });
  const folder = join(out, '..');
  const sizeBefore = existsSync(out) ? statSync(out).size : 0;
  // Written, but far from done: a file in the folder got data, or the earlier export changed size.
  const writing = (): boolean =>
    readdirSync(folder).some((f) => {
      const size = statSync(join(folder, f)).size;
      return join(folder, f) === out ? size !== sizeBefore : size > 0;
    });
  const started = Date.now();
  while (!writing()) {
    if (Date.now() - started > 30_000) throw new Error(`the export did not start writing: ${run.stderrSoFar()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  run.child.kill(signal);
  const ended = await run.done;
  return { signal: run.child.signalCode, code: ended.code };
}

describe('picscan export stopped midway', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s keeps the complete export the user had, and leaves no partial file', async (signal) => {
    const folder = outFolder(`kept-${signal}`);
    const out = join(folder, 'results.csv');
    const first = await runPicscan(['export', String(batchId), '--out', out, '--db', dbPath], { env, timeoutMs: 120_000 });
    expect(first.code).toBe(0);
    const complete = readFileSync(out);
    expect(complete.toString().trimEnd().split('\n')).toHaveLength(ROWS + 1);

    const stopped = await exportStoppedBy(out, signal);
    expect(stopped).toEqual({ signal, code: null });
    expect(readFileSync(out).equals(complete)).toBe(true);
    expect(readdirSync(folder)).toEqual(['results.csv']);
  });

  it('leaves nothing at a new path when stopped', async () => {
    const folder = outFolder('new');
    const stopped = await exportStoppedBy(join(folder, 'results.json'), 'SIGINT');
    expect(stopped.signal).toBe('SIGINT');
    expect(readdirSync(folder)).toEqual([]);
  });

  it('replaces an earlier file when complete, keeping its permissions', async () => {
    const folder = outFolder('replaced');
    const out = join(folder, 'results.ndjson');
    writeFileSync(out, 'an earlier export\n');
    chmodSync(out, 0o600);
    const run = await runPicscan(['export', String(batchId), '--format', 'ndjson', '--out', out, '--db', dbPath, '--status', 'done'], {
      env,
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`Exported ${ROWS} items of batch ${batchId} to ${out}.\n`);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(ROWS);
    expect(JSON.parse(lines[0]!)).toMatchObject({ status: 'done' });
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder)).toEqual(['results.ndjson']);
  });
});
