/**
 * A slow image host must not stall the API: fetching an image is network waiting, not model work,
 * so a call whose image is still downloading does not hold one of the `analysisConcurrency`
 * model slots. Real server on 127.0.0.1, real models, a loopback image server that holds one
 * image back until the test lets it go.
 */
import type { ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend } from '../../../src-main/app';
import { loadConfig } from '../../../src-main/config';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { until } from '../../helpers/until';
import { getQuery, postJson, startApi, type ApiHarness } from './harness';

let images: FixtureServer;
/** A second image host (another port: another origin). */
let otherHost: FixtureServer;
let api: ApiHarness;
let key: string;
// The real operations under a bound of one model call at a time.
const backend = createBackend(loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-slow-images-')) }, {}), {
  apiBlockPrivateNetworks: false,
  apiConcurrency: 1,
});
const ops = backend.operations();
/** More calls to one hanging host than there are download slots (8 with one model slot). */
const HANGING_CALLS = 10;

// Requests for /slow/* wait here until the test answers them.
const heldBack: ServerResponse[] = [];
const portrait = readFileSync(fixture('obama_portrait.jpg'));
const answer = (held: ServerResponse[]): void => {
  for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': portrait.length }).end(portrait);
};
const answerHeldBack = (): void => answer(heldBack);
// Requests for /hang/* on the first host wait here.
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
  for (const path of ['/slow/a.jpg', '/slow/b.jpg', '/slow/c.jpg']) images.route(path, (_req, res) => void heldBack.push(res));
  for (let i = 0; i < HANGING_CALLS; i++) images.route(`/hang/${i}.jpg`, (_req, res) => void hanging.push(res));
  otherHost = await startFixtureServer();
  otherHost.route('/cat.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' } });
  api = await startApi({ operations: ops });
  key = api.api.keys.create({ name: 'patient', tier: 'pro' }).key;
});
afterAll(async () => {
  answerHeldBack();
  answer(hanging);
  await otherHost?.close();
  await api?.close();
  await backend.close();
  await images?.close();
});

describe('calls whose image is still downloading', () => {
  it('do not hold the model slot: other calls are served meanwhile, and they finish once their image arrives', async () => {
    // One analyze, one detect and one thumbnail call wait on their image host.
    const slow = [
      getQuery(`${api.url}/ai/vision/analyze`, { image: images.url('/slow/a.jpg'), features: 'Faces', key }),
      postJson(`${api.url}/ai/faces/detect`, { image: images.url('/slow/b.jpg') }, key),
    ] as const;
    const slowThumbnail = request(`${api.url}/ai/vision/thumbnail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', key },
      body: JSON.stringify({ image: images.url('/slow/c.jpg'), width: 32, height: 32 }),
    });
    await until('the three image requests to reach the image host', () => heldBack.length === 3, 30_000);

    // Another client's calls are served while those downloads wait.
    const fast = await getQuery(`${api.url}/ai/vision/analyze`, { image: images.url('/cat.jpg'), features: 'Color', key });
    expect(fast.status).toBe(200);
    expect(fast.json).toMatchObject({ status: true, data: { metadata: { width: 451, height: 300 } } });
    const fastDetect = await postJson(`${api.url}/ai/faces/detect`, { image: images.url('/cat.jpg') }, key);
    expect(fastDetect.json).toMatchObject({ Errors: [{ ErrCode: 5002 }] });
    expect(heldBack).toHaveLength(3);

    // The images arrive: the waiting calls are processed (one model call at a time) and answered.
    answerHeldBack();
    const [analyzed, detected] = await Promise.all(slow);
    expect(analyzed.status).toBe(200);
    expect(analyzed.json).toMatchObject({ status: true, data: { faces: [{ gender: 'Male' }] } });
    expect(detected.json).toMatchObject({ images: [{ file: 'b.jpg', faces: [{ face_id: 1 }] }] });
    const thumbnail = await slowThumbnail;
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    await thumbnail.body.arrayBuffer();
  });
});

describe('an image host that hangs', () => {
  it('holds at most half of the download slots: calls for images elsewhere are served meanwhile', async () => {
    const stuck = Array.from({ length: HANGING_CALLS }, (_, i) =>
      getQuery(`${api.url}/ai/vision/analyze`, { image: images.url(`/hang/${i}.jpg`), features: 'Color', key }),
    );
    await until('the hanging host to hold its share of the downloads', () => hanging.length >= 4, 30_000);

    // Without a per-host bound, all 8 download slots wait on the hanging host until its 30 s timeout.
    const elsewhere = await Promise.race([
      getQuery(`${api.url}/ai/vision/analyze`, { image: otherHost.url('/cat.jpg'), features: 'Color', key }),
      new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 15_000)),
    ]);
    expect(elsewhere).not.toBe('still waiting');
    expect(elsewhere).toMatchObject({ status: 200, json: { status: true, data: { metadata: { width: 451, height: 300 } } } });
    expect(hanging).toHaveLength(4);

    // The host answers: every waiting call is served in turn.
    const answering = setInterval(() => answer(hanging), 50);
    try {
      const done = await Promise.all(stuck);
      for (const r of done) expect(r).toMatchObject({ status: 200, json: { status: true } });
    } finally {
      clearInterval(answering);
    }
  });
});
