// `picscan resume <id> --retry-failed`: a finished batch's failed items run again once their
// cause is gone (a host that was down), with the real CLI, a real database and a loopback image
// server; lines the import refused stay failed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPicscan } from '../../helpers/cli';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';

let images: FixtureServer;
const dir = mkdtempSync(join(tmpdir(), 'picscan-retry-failed-'));
const db = join(dir, 'picscan.db');
const env = { PICSCAN_DATA_DIR: dir };
const jpeg = { 'content-type': 'image/jpeg' };

beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: jpeg });
  images.route('/later.jpg', { status: 404, body: 'not yet', headers: { 'content-type': 'text/plain' } });
});
afterAll(async () => {
  await images.close();
});

interface Listed {
  id: number;
  status: string;
  counts: Record<string, number>;
}
const listed = async (): Promise<Listed> =>
  (JSON.parse((await runPicscan(['batches', '--json', '--db', db], { env })).stdout) as Listed[])[0]!;

describe('picscan resume --retry-failed', () => {
  it('runs the failed items of a finished batch again, leaving refused lines failed', async () => {
    const list = join(dir, 'list.txt');
    // A line refused at import (no scheme would be a path next to the list, failing only when read).
    writeFileSync(list, [images.url('/cat.jpg'), images.url('/later.jpg'), 'ftp://example.com/not-http.jpg'].join('\n'));
    const first = await runPicscan(['batch', list, '--db', db, '--features', 'Color'], { env, timeoutMs: 120_000 });
    expect(first.code).toBe(1);
    expect(await listed()).toMatchObject({ status: 'done', counts: { done: 1, failed: 2 } });

    // Without the flag a finished batch has nothing to run.
    expect((await runPicscan(['resume', '1', '--db', db], { env, timeoutMs: 120_000 })).code).toBe(1);
    expect(await listed()).toMatchObject({ status: 'done', counts: { done: 1, failed: 2 } });

    images.route('/later.jpg', { file: fixture('obama_portrait.jpg'), headers: jpeg });
    const retried = await runPicscan(['resume', '1', '--retry-failed', '--db', db], { env, timeoutMs: 120_000 });
    expect(retried.stderr).toContain('Batch 1: 1 failed item queued again.');
    expect(retried.stderr).not.toMatch(/\n\s+at /);
    expect(retried.code).toBe(1); // the refused line is still failed
    expect(await listed()).toMatchObject({ status: 'done', counts: { total: 3, done: 2, failed: 1, queued: 0 } });
    const exported = JSON.parse(
      (await runPicscan(['export', '1', '--db', db, '--format', 'json', '--out', '-'], { env })).stdout,
    ) as Array<{
      url: string;
      status: string;
      error?: { code: string } | null;
      response?: { color?: unknown } | null;
    }>;
    const later = exported.find((r) => r.url === images.url('/later.jpg'))!;
    expect(later.status).toBe('done');
    expect(later.error ?? null).toBeNull();
    expect(later.response?.color).toBeDefined();
    expect(exported.find((r) => r.url === 'ftp://example.com/not-http.jpg')).toMatchObject({
      status: 'failed',
      error: { code: 'unsupported-scheme' },
    });
  });
});
