import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../helpers/paths';
import { redisAvailable } from '../../../helpers/redis';
import { uniqueJpeg } from '../../../helpers/unique-jpeg';
import { distributedEnv, startPicscan, tempDir, until, writeList } from './support';

// `picscan worker` giving up (a second signal) while its model threads are inside ONNX Runtime
// runs: it must end as it says, exit 1 with its warning, never abort (SIGABRT, exit 134) with
// "terminate called after throwing an instance of 'Napi::Error'". A real redis-server, real worker
// and coordinator processes, real models, photos from a loopback server.
//
// Whether a thread is inside a run at the moment of exit cannot be observed from outside, so the
// worker is kept as busy in runs as it can be: many jobs in hand, small photos (the models' share
// of an analysis grows as the photo shrinks: for this one, measured on one thread, about 3/4 of a
// detect and half of a full analyze) and several threads running models. Without the halt before
// exiting, each case aborted in most runs (measured when this test was added); with it, never.

const dist = distributedEnv();
const { track } = dist;

/** Photos per case: more than the worker takes at once, so it is never short of work. */
const PHOTOS = 48;
/** Jobs the worker holds at once: several seconds of analyses in hand on a 2-core machine. */
const CONCURRENCY = 16;

const photo = readFileSync(fixture('family_six_faces.jpg'));
/** Photos delivered in full, by path. */
const delivered = new Set<string>();

/** `PHOTOS` URLs under `/<tag>/`, each distinct bytes (nothing is de-duplicated). */
function photoUrls(tag: string): string[] {
  return Array.from({ length: PHOTOS }, (_, i) => {
    const path = `/${tag}/${i}.jpg`;
    const body = uniqueJpeg(photo, i);
    dist.images.route(path, (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length });
      res.end(body, () => delivered.add(path));
    });
    return dist.images.url(path);
  });
}

const deliveredUnder = (tag: string): number => [...delivered].filter((p) => p.startsWith(`/${tag}/`)).length;

describe.skipIf(!redisAvailable)('picscan worker: giving up while the models run', { timeout: 300_000 }, () => {
  it.each([
    // Two analysis threads (a pool), each with analyze's face-free models in a thread of its own
    // (two model threads each): four threads running models.
    { tag: 'analyze', batch: [], env: { PICSCAN_ANALYSIS_WORKERS: '2', PICSCAN_MODEL_THREADS: '4' } },
    // Two analysis threads, each running the face models (one model thread each).
    { tag: 'detect', batch: ['--detect'], env: { PICSCAN_ANALYSIS_WORKERS: '2', PICSCAN_MODEL_THREADS: '2' } },
  ])('a second SIGTERM mid-analysis ($tag): exit 1 with the warning, no abort', async ({ tag, batch, env }) => {
    const dir = tempDir(`picscan-dist-give-up-${tag}-`);
    const w = track(
      startPicscan(
        ['worker', '--redis', dist.redis.url, '--name', `quitter-${tag}`, '--concurrency', String(CONCURRENCY), '--allow-private-networks'],
        env,
      ),
    );
    await w.waitFor(/ready/);
    const urls = photoUrls(tag);
    const coordinator = track(
      startPicscan(['batch', writeList(dir, urls), ...batch, '--db', join(dir, 'picscan.db'), '--redis', dist.redis.url]),
    );
    // A job is taken only when one in hand is done: past the first `CONCURRENCY` photos, the
    // models are loaded and the worker is analysing the rest of those it holds.
    await until(() => deliveredUnder(tag) >= CONCURRENCY + 4, 180_000, 'the worker has analysed a few photos');
    w.proc.kill('SIGTERM');
    await w.waitFor(/SIGTERM: finishing the jobs in hand/, 30_000);
    w.proc.kill('SIGTERM');
    const code = await w.exited;
    expect(w.output()).not.toMatch(/terminate called|Napi::Error/);
    expect({ code, signal: w.proc.signalCode }, w.output()).toEqual({ code: 1, signal: null });
    expect(w.output()).toMatch(/Stopping without a clean close \(SIGTERM again\): jobs in hand go back to the queue/);
    await coordinator.kill();
  });
});
