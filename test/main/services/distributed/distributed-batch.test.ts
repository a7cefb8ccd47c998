import { readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, repoRoot } from '../../../helpers/paths';
import { redisAvailable } from '../../../helpers/redis';
import { distributedEnv, FILES, imageType as type, itemsOf, startPicscan, startWorkerChild, tempDir, writeList } from './support';

// Distributed batches end to end: a real redis-server, real `picscan worker` processes and a real
// `picscan batch --redis` coordinator, images from a loopback server. Every URL must end exactly
// once with the right outcome, whatever is killed or restarted.

const dist = distributedEnv();
const { track } = dist;

beforeAll(async () => {
  for (const f of FILES) {
    dist.images.route(`/img/${f}`, { file: fixture(f), headers: { 'content-type': type(f) } });
    // The same bytes under another URL: de-duplicated across workers by content hash.
    dist.images.route(`/copy/${f}`, { file: fixture(f), headers: { 'content-type': type(f) } });
  }
});

/** A models folder like the real one but with another manifest, hence another model set. */
function otherModelSet(): string {
  const dir = tempDir('picscan-models-other-');
  const models = join(repoRoot, 'models');
  for (const entry of readdirSync(models)) {
    if (entry === 'manifest.json' || entry === 'convert') continue;
    symlinkSync(join(models, entry), join(dir, entry));
  }
  const manifest = JSON.parse(readFileSync(join(models, 'manifest.json'), 'utf8')) as { version: number };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, note: 'another build' }, null, 2));
  return dir;
}

// Worker processes load the real models: minutes on a busy 2-core machine.
describe.skipIf(!redisAvailable)('distributed batch (BullMQ on a real Redis)', { timeout: 300_000 }, () => {
  it('runs a list across two workers: each URL once, duplicates by content, the worker recorded, other model sets refused', async () => {
    const dir = tempDir('picscan-dist-');
    const db = join(dir, 'picscan.db');
    // Locks of 10 s: this test counts fetches, and a lapsed lock would rightly run a job twice.
    const stranger = track(startWorkerChild(dist.redis.url, 'worker-other', { PICSCAN_MODELS_DIR: otherModelSet() }, 10_000));
    await stranger.waitFor(/ready/);
    const urls = [
      ...FILES.map((f) => dist.images.url(`/img/${f}`)),
      ...FILES.slice(0, 3).map((f) => dist.images.url(`/copy/${f}`)),
      dist.images.url('/img/missing.jpg'),
    ];
    const coordinator = track(
      startPicscan(['batch', writeList(dir, urls), '--db', db, '--redis', dist.redis.url, '--progress-every', '1']),
    );
    // With only a worker of other models connected, the batch waits, and both sides say why: the
    // worker at its next heartbeat, the coordinator on its progress line.
    await Promise.all([
      stranger.waitFor(/Refusing batch \w+: it was made for model set \w+…, this worker has \w+…/, 60_000),
      coordinator.waitFor(/0 workers; worker-other has other models and takes none of these items/, 60_000),
    ]);
    for (const name of ['worker-a', 'worker-b']) track(startWorkerChild(dist.redis.url, name, {}, 10_000));
    const code = await coordinator.exited;
    expect(code, coordinator.output()).toBe(1); // one item failed (404)

    const items = itemsOf(db);
    expect(items.map((i) => i.url).sort()).toEqual([...urls].sort());
    const byUrl = new Map(items.map((i) => [i.url, i]));
    for (const f of FILES) expect(byUrl.get(dist.images.url(`/img/${f}`))).toMatchObject({ status: 'done', results: 1 });
    for (const f of FILES.slice(0, 3)) {
      const copy = byUrl.get(dist.images.url(`/copy/${f}`))!;
      const original = byUrl.get(dist.images.url(`/img/${f}`))!;
      expect(copy).toMatchObject({ status: 'done', results: 1 });
      // One of the two was analysed, the other reused its result.
      expect([copy.reused_from, original.reused_from].filter((r) => r !== null)).toHaveLength(1);
    }
    expect(byUrl.get(dist.images.url('/img/missing.jpg'))).toMatchObject({ status: 'failed', error_code: 'image-fetch-failed' });
    const analysed = items.filter((i) => i.status === 'done');
    expect(analysed.every((i) => i.worker === 'worker-a' || i.worker === 'worker-b')).toBe(true);
    // Each image was fetched once per URL, never twice (no job ran twice).
    for (const u of urls) expect(dist.images.hits(new URL(u).pathname)).toBe(1);
    expect(coordinator.output()).toMatch(/2 workers/);
    expect(coordinator.output()).not.toMatch(/worker-[ab] ha(s|ve) other models/);
    // A finished batch leaves nothing behind: neither its keys nor its results queue (whose event
    // stream holds up to 10 000 entries, about 0.7 MB, per batch).
    expect(dist.redis.cli('KEYS', 'picscan:batch:*').trim()).toBe('');
    expect(dist.redis.cli('KEYS', 'picscan:results-*').trim()).toBe('');
  });

  it('an unreachable Redis: a clear message without the password, exit 1, the batch kept for resume', async () => {
    const dir = tempDir('picscan-dist-noredis-');
    const db = join(dir, 'picscan.db');
    const run = track(
      startPicscan([
        'batch',
        writeList(dir, [dist.images.url('/img/cat_chelsea.jpg')]),
        '--db',
        db,
        '--redis',
        'redis://:hunter2@127.0.0.1:1',
      ]),
    );
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/Cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
    expect(run.output()).not.toContain('hunter2');
    expect(run.output()).not.toMatch(/\n\s+at /); // no stack trace
    expect(itemsOf(db).map((i) => i.status)).toEqual(['queued']);
  });
});
