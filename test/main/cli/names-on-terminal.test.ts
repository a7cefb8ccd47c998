// A batch's name comes from the user or from a list's file name; whatever it holds, the CLI's
// lines about the batch stay one line each and carry no escape sequence to the terminal.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPicscan } from '../../helpers/cli';

describe('batch names on the terminal (child processes)', () => {
  it('shows control characters of a batch name as U+FFFD in the summary and delete lines', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-names-'));
    const env = { PICSCAN_DATA_DIR: dir };
    const list = join(dir, 'list.txt');
    // Nothing listens on port 1: the item fails at once, the batch ends "done".
    writeFileSync(list, 'http://127.0.0.1:1/a.jpg\n');
    const name = 'red\u001b[31m\nname';
    const batch = await runPicscan(['batch', list, '--name', name, '--features', 'Color'], { env });
    expect(batch.stdout + batch.stderr).toContain('Batch 1 "red\ufffd[31m\ufffdname" done:');
    const deleted = await runPicscan(['delete', '1'], { env });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain('Deleted batch 1 "red\ufffd[31m\ufffdname"');
    for (const out of [batch.stdout, batch.stderr, deleted.stderr]) expect(out).not.toContain('\u001b');
  });
});
