// A reader that stops early (`picscan export 1 --out - | head -1`, `picscan batches | true`)
// closes the pipe: the command ends quietly with 0, not with "unexpected error: write EPIPE"
// and a stack trace.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startPicscan } from '../../helpers/cli';
import { seedDatabaseFile } from '../store/seed';

const dir = mkdtempSync(join(tmpdir(), 'picscan-broken-pipe-'));
const dbPath = join(dir, 'picscan.db');
const env = { PICSCAN_DATA_DIR: dir };
let batchId = 0;

beforeAll(() => {
  batchId = seedDatabaseFile(dbPath, 3_000); // ≈ 1 MB of CSV: far more than a pipe holds
});

/** Runs picscan with its stdout closed by the reader: at the first output, or at once. */
async function withClosedStdout(args: string[], when: 'first-output' | 'at-once') {
  const run = startPicscan([...args, '--db', dbPath], { env });
  if (when === 'at-once') run.child.stdout!.destroy();
  else run.child.stdout!.once('data', () => run.child.stdout!.destroy());
  return run.done;
}

describe('picscan with a reader that closes the pipe', () => {
  it.each(['csv', 'json', 'ndjson'])('export --format %s --out - | head -1 ends quietly', async (format) => {
    const r = await withClosedStdout(['export', String(batchId), '--format', format, '--out', '-'], 'first-output');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('batches | true ends quietly', async () => {
    const r = await withClosedStdout(['batches'], 'at-once');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
