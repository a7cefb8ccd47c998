import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_BALANCE_MICROCENTS, TIERS } from '../../../src-main/services/api';
import { runPicscan } from '../../helpers/cli';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { realOperations, startApi, type ApiHarness } from '../http/harness';

// A real `picscan batch --backend remote` (child process) against picscan's own API server on
// loopback, which analyses images from a loopback fixture server with the real models.
let images: FixtureServer;
let api: ApiHarness;
const served = realOperations();
const dir = mkdtempSync(join(tmpdir(), 'picscan-remote-batch-'));

beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
  images.route('/obama.jpg', { file: fixture('obama_portrait.jpg'), headers: { 'content-type': 'image/jpeg' } });
  images.route('/lion.png', { file: fixture('lion_line_drawing.png'), headers: { 'content-type': 'image/png' } });
  api = await startApi({ operations: served });
});
afterAll(async () => {
  await api.close();
  await served.close();
  await images.close();
});

describe('picscan batch --backend remote', () => {
  it('analyses every item through the remote API, charging one transaction per processed image', async () => {
    const created = api.api.keys.create({ name: 'batch', tier: 'pro' });
    const list = join(dir, 'urls.txt');
    writeFileSync(list, ['/cat.jpg', '/obama.jpg', '/lion.png', '/missing.jpg'].map((p) => images.url(p)).join('\n'));
    const db = join(dir, 'remote.db');
    const run = await runPicscan(
      ['batch', list, '--db', db, '--backend', 'remote', '--base-url', api.url, '--features', 'Tags,Faces,Color', '--json'],
      { env: { PICSCAN_REMOTE_KEY: created.key }, timeoutMs: 180_000 },
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(1); // one item failed (the 404), the rest are done
    const summary = JSON.parse(run.stdout.trim()) as { backend: { kind: string; baseUrl: string }; counts: Record<string, number> };
    expect(summary.backend).toMatchObject({ kind: 'remote', baseUrl: api.url.replace(/\/$/, '') });
    expect(summary.counts).toMatchObject({ total: 4, done: 3, failed: 1 });

    const exported = await runPicscan(['export', '1', '--db', db, '--format', 'json', '--out', '-']);
    expect(exported.code).toBe(0);
    const rows = JSON.parse(exported.stdout) as Array<{ url: string; status: string; response?: { faces?: unknown[]; color?: unknown } }>;
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    expect(byUrl.get(images.url('/obama.jpg'))?.response?.faces).toHaveLength(1);
    expect(byUrl.get(images.url('/cat.jpg'))?.response?.color).toBeDefined();

    // Three processed images charged at the pro price; the unreachable one was refused uncharged.
    const after = api.api.keys.get(created.id);
    expect(created.balanceMicrocents - after.balanceMicrocents).toBe(3 * TIERS.pro.priceMicrocents);
  });

  it('pauses, failing nothing, when the service refuses the key or runs out of credit; a resume after the fix finishes', async () => {
    const list = join(dir, 'halt.txt');
    writeFileSync(list, ['/cat.jpg', '/obama.jpg', '/lion.png'].map((p) => images.url(p)).join('\n'));
    const run = (args: string[], key: string) => runPicscan([...args, '--json'], { env: { PICSCAN_REMOTE_KEY: key }, timeoutMs: 180_000 });
    const counts = async (db: string) => {
      const listed = await runPicscan(['batches', '--json', '--db', db]);
      return (JSON.parse(listed.stdout) as Array<{ status: string; counts: Record<string, number> }>)[0]!;
    };
    const remote = ['--backend', 'remote', '--base-url', api.url, '--features', 'Color'];

    // A key the service does not know: the first refusal pauses the batch, every item stays queued.
    const badKeyDb = join(dir, 'bad-key.db');
    const refused = await run(['batch', list, '--db', badKeyDb, ...remote], 'psk_not_a_key');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(refused.stderr).toMatch(
      /^picscan: Batch 1 paused: .*none was marked failed\. Check the key .*, then continue with: picscan resume 1$/m,
    );
    expect(refused.code).toBe(1);
    expect(await counts(badKeyDb)).toMatchObject({ status: 'paused', counts: { total: 3, queued: 3, failed: 0 } });
    const good = api.api.keys.create({ name: 'fixed', tier: 'pro' });
    const resumed = await run(['resume', '1', '--db', badKeyDb], good.key);
    expect(resumed.code).toBe(0);
    expect(await counts(badKeyDb)).toMatchObject({ status: 'done', counts: { done: 3, failed: 0 } });

    // Credit for one call (a call needs MIN_BALANCE_MICROCENTS): one image is done, then the batch pauses until a top-up.
    const poor = api.api.keys.create({ name: 'poor', tier: 'pro', creditMicrocents: MIN_BALANCE_MICROCENTS });
    const creditDb = join(dir, 'credit.db');
    const stopped = await run(['batch', list, '--db', creditDb, ...remote, '--download-concurrency', '1', '--concurrency', '1'], poor.key);
    expect(stopped.stderr).toMatch(/^picscan: Batch 1 paused: .* Top up the credit, then continue with: picscan resume 1$/m);
    expect(await counts(creditDb)).toMatchObject({ status: 'paused', counts: { done: 1, queued: 2, failed: 0 } });
    api.api.keys.topUp(poor.id, MIN_BALANCE_MICROCENTS);
    expect((await run(['resume', '1', '--db', creditDb], poor.key)).code).toBe(0);
    expect(await counts(creditDb)).toMatchObject({ status: 'done', counts: { done: 3, failed: 0 } });
  });

  it('pauses, failing nothing, when the remote service cannot be reached', async () => {
    const list = join(dir, 'unreachable.txt');
    writeFileSync(list, ['/cat.jpg', '/obama.jpg'].map((p) => images.url(p)).join('\n'));
    const db = join(dir, 'unreachable.db');
    const key = api.api.keys.create({ name: 'down', tier: 'pro' }).key;
    // A port nothing listens on: every connection is refused (the client retries 4 times first).
    const down = 'http://127.0.0.1:9';
    const run = await runPicscan(['batch', list, '--db', db, '--backend', 'remote', '--base-url', down, '--features', 'Color'], {
      env: { PICSCAN_REMOTE_KEY: key },
      timeoutMs: 180_000,
    });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toMatch(
      /^picscan: Batch 1 paused: The remote service at http:\/\/127\.0\.0\.1:9 could not be reached: .* Check that the remote service is up and its base URL, then continue with: picscan resume 1$/m,
    );
    expect(run.code).toBe(1);
    const listed = await runPicscan(['batches', '--json', '--db', db]);
    expect((JSON.parse(listed.stdout) as Array<{ status: string; counts: Record<string, number> }>)[0]).toMatchObject({
      status: 'paused',
      counts: { total: 2, queued: 2, failed: 0 },
    });
  });

  it('refuses clearly when the remote key is missing', async () => {
    const list = join(dir, 'one.txt');
    writeFileSync(list, images.url('/cat.jpg'));
    const run = await runPicscan(['batch', list, '--db', join(dir, 'nokey.db'), '--backend', 'remote', '--base-url', api.url], {
      env: { PICSCAN_REMOTE_KEY: '' },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('pass --key <key> or set PICSCAN_REMOTE_KEY');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // Asked before the batch is made: no orphan batch waits in the database.
    expect(run.stderr).not.toMatch(/^Batch \d+:/m);
    const listed = await runPicscan(['batches', '--json', '--db', join(dir, 'nokey.db')]);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it('rejects bad backend flags as usage errors', async () => {
    const list = join(dir, 'bad.txt');
    writeFileSync(list, images.url('/cat.jpg'));
    const noUrl = await runPicscan(['batch', list, '--db', join(dir, 'bad.db'), '--backend', 'remote']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--backend remote needs --base-url');
    const wrong = await runPicscan(['batch', list, '--db', join(dir, 'bad.db'), '--backend', 'cloud']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--backend must be local or remote');
  });
});
