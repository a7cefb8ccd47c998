/**
 * A thumbnail call whose client disconnects keeps its place in the API's concurrency bound until
 * its work has unwound, as analyze and detect calls do: otherwise clients that leave mid-crop
 * could make the server run any number of thumbnails (smart crops run the face and object
 * models) at once.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeService } from '../../../src-main/services/analyze.service';
import type { DetectService } from '../../../src-main/services/detect.service';
import { apiCallSlots, queuedOperations } from '../../../src-main/services/api';
import { createThumbnailService, type ThumbnailService } from '../../../src-main/services/thumbnail.service';
import type { RegionSource } from '../../../src-main/services/thumbnail/regions';
import { createImageLoader, intakeOptions } from '../../../src-main/intake';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { until } from '../../helpers/until';
import { startApi, type ApiHarness } from './harness';

let images: FixtureServer;
let api: ApiHarness;
let ops: ReturnType<typeof queuedOperations>;
let key: string;
let keyId: number;
const rawLoader = createImageLoader(intakeOptions('api', { blockPrivateNetworks: false, maxRetries: 0 }));
// One model slot: one call at a time may decode and crop.
const slots = apiCallSlots(1);
const loader = slots.gate(rawLoader);

// The first smart crop's region search blocks until the test opens the gate, ignoring the
// cancellation the way an ONNX Runtime run does (it cannot be interrupted).
let openGate: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (openGate = resolve));
let searches = 0;
const blockingFirstSearch: RegionSource = {
  kind: 'faces',
  async find() {
    if (++searches === 1) await gate;
    return [];
  },
};

// The real thumbnail service (loopback intake, crop, encode).
const thumbnails: ThumbnailService = createThumbnailService({ loader, regionSources: [blockingFirstSearch] });

beforeAll(async () => {
  images = await startFixtureServer();
  images.route('/portrait.jpg', { file: fixture('obama_portrait.jpg'), headers: { 'content-type': 'image/jpeg' } });
  const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used by this test')) });
  ops = queuedOperations({
    analyzer: unused as AnalyzeService,
    detector: unused as DetectService,
    thumbnails,
    slots,
  });
  api = await startApi({ operations: ops });
  ({ id: keyId, key } = api.api.keys.create({ name: 'cropper', tier: 'pro' }));
});
afterAll(async () => {
  openGate();
  await api?.close();
  await ops?.close();
  await images?.close();
  await rawLoader.close();
});

const held = (): number =>
  (
    api.db.prepare("SELECT count(*) AS n FROM api_transactions WHERE key_id = ? AND status = 'held'").get(keyId) as {
      n: number;
    }
  ).n;

const thumbnailCall = (signal?: AbortSignal) =>
  request(`${api.url}/ai/vision/thumbnail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', key },
    body: JSON.stringify({ image: images.url('/portrait.jpg'), width: 64, height: 64, smartCropping: true }),
    signal,
  });

describe('thumbnail calls and the concurrency bound', () => {
  it('a call whose client left keeps its slot until its work has stopped; the next waits for it', async () => {
    // A: its smart crop is inside the (uninterruptible) region search when its client leaves.
    const leaving = new AbortController();
    const a = thumbnailCall(leaving.signal).catch((err: unknown) => err);
    await until('the first crop to reach the region search', () => searches === 1, 30_000);
    leaving.abort();
    expect(await a).toBeInstanceOf(Error);
    // The server has read the disconnect: A's hold is released (it is never charged).
    await until("the server to release the leaving call's hold", () => held() === 0, 30_000);

    // B: its image arrives, but it must wait for the model slot: A's crop is still running.
    const b = thumbnailCall();
    await until('the second call to wait for the model slot', () => slots.models().waiting === 1, 30_000);
    expect(slots.models().running).toBe(1);
    expect(searches).toBe(1);
    expect(held()).toBe(1);

    openGate();
    const res = await b;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    await res.body.arrayBuffer();
    expect(searches).toBe(2);
    expect(held()).toBe(0);
    expect(api.api.credits.chargedCount(keyId)).toBe(1);
  });
});
