// `picscan batch` quit at once (a second Ctrl-C or SIGTERM) while its model threads are inside
// ONNX Runtime runs: it must end as it says, with 130 or 143, never abort (SIGABRT, exit 134)
// with "terminate called after throwing an instance of 'Napi::Error'". Real child process, real
// models, photos from a loopback server, a real database file.
//
// Whether a thread is inside a run at the moment of exit cannot be seen from outside, so the
// batch keeps its threads as busy in runs as it can: small photos (the models' larger share of an
// analysis) and several threads running models.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPicscan } from '../../helpers/cli';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { uniqueJpeg } from '../../helpers/unique-jpeg';
import { until } from '../../helpers/until';

/** Photos per run: many more than a 2-core machine analyses in the time the test takes. */
const PHOTOS = 400;
const photo = readFileSync(fixture('family_six_faces.jpg'));
const dir = mkdtempSync(join(tmpdir(), 'picscan-batch-quit-'));
let images: FixtureServer;
let delivered = 0;

beforeAll(async () => {
  images = await startFixtureServer();
});
afterAll(async () => {
  await images?.close();
});

function listOf(tag: string): string {
  const urls = Array.from({ length: PHOTOS }, (_, i) => {
    const path = `/${tag}/${i}.jpg`;
    const body = uniqueJpeg(photo, i);
    images.route(path, (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length });
      res.end(body, () => delivered++);
    });
    return images.url(path);
  });
  const file = join(dir, `${tag}.txt`);
  writeFileSync(file, `${urls.join('\n')}\n`);
  return file;
}

describe('picscan batch: quitting at once while the models run', { timeout: 300_000 }, () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('a second %s mid-analysis: exit %i, no abort', async (signal, code) => {
    const list = listOf(signal);
    const env = { PICSCAN_DATA_DIR: dir, PICSCAN_ANALYSIS_WORKERS: '2', PICSCAN_MODEL_THREADS: '4' };
    // Many analyses in hand: the pause the first signal starts waits for them, so the second
    // signal comes while the models run (not after the batch has paused and is closing).
    const batch = startPicscan(['batch', list, '--db', join(dir, `${signal}.db`), '--progress-every', '1', '--concurrency', '8'], { env });
    const start = delivered;
    // Past the first few photos the models are loaded and busy with the next ones.
    await until('a few photos analysed', () => /done [1-9]/.test(batch.stderrSoFar()) && delivered - start >= 12, 240_000);
    batch.child.kill(signal);
    await until('the pause begun', () => batch.stderrSoFar().includes('again to quit now'), 30_000);
    batch.child.kill(signal);
    const run = await batch.done;
    expect(run.stderr).not.toMatch(/terminate called|Napi::Error/);
    expect({ code: run.code, signal: batch.child.signalCode }, run.stderr).toEqual({ code, signal: null });
  });
});
