import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { DISCONNECT_AT, DISCONNECT_CASES, disconnectingCall, eventually, LEAVE_ATTEMPTS, servedImage, timedCall } from './disconnect';
import { realOperations, startApi, type ApiHarness } from './harness';

// The hold must go as soon as the server sees the socket close, not when the models finish.
const HOLD_RELEASE_MS = 1_000;

let images: FixtureServer;
let api: ApiHarness;
let served: ReturnType<typeof servedImage>;
let keyId: number;
let key: string;
const ops = realOperations();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  images = await startFixtureServer();
  served = servedImage(images, '/family.jpg', fixture('family_six_faces.jpg'));
  api = await startApi({ operations: ops });
  ({ id: keyId, key } = api.api.keys.create({ name: 'leaver', tier: 'pro' }));
  // Load every model once, so the timed calls below measure warm analyses.
  for (const c of [DISCONNECT_CASES[0], DISCONNECT_CASES[2]]) await timedCall(api.url, c, images.url('/family.jpg'), key, served);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await api.close();
  await ops.close();
  await images.close();
});

const heldMicrocents = (): number =>
  (
    api.db
      .prepare("SELECT coalesce(sum(price_microcents), 0) AS held FROM api_transactions WHERE key_id = ? AND status = 'held'")
      .get(keyId) as { held: number }
  ).held;
const balance = (): number => api.api.keys.get(keyId).balanceMicrocents;

describe('a client that disconnects mid-analysis', () => {
  for (const c of DISCONNECT_CASES) {
    it(`${c.name}: the server stays up, releases the hold at once and charges nothing`, async () => {
      const image = images.url('/family.jpg');
      // The fastest of three warm calls: on a busy machine one slow call would put the later
      // disconnects after the reply.
      const warmCalls = [];
      for (let i = 0; i < 3; i++) warmCalls.push(await timedCall(api.url, c, image, key, served));
      for (const w of warmCalls) expect(w.status).toBe(200);
      let warmMs = Math.min(...warmCalls.map((w) => w.analysisMs));
      let before = balance();
      let charged = api.api.credits.chargedCount(keyId);
      // The reply beat the disconnect (the machine got quieter since the warm calls): the client
      // read it (200), or the server had written it all when the client's close arrived (the
      // client saw its own abort; the server, a delivered reply). Either way it is charged once.
      const delivered = async (ended: 'aborted' | number): Promise<boolean> => {
        if (ended !== 'aborted') return true;
        await eventually(() => heldMicrocents() === 0, HOLD_RELEASE_MS);
        return api.api.credits.chargedCount(keyId) > charged;
      };
      for (const fraction of DISCONNECT_AT) {
        let ended = await disconnectingCall(api.url, c, image, key, served, fraction * warmMs);
        for (let retry = 1; retry < LEAVE_ATTEMPTS && (await delivered(ended)); retry++) {
          // Re-time and leave again.
          if (ended !== 'aborted') expect(ended).toBe(200);
          expect(await eventually(() => api.api.credits.chargedCount(keyId) === charged + 1, HOLD_RELEASE_MS)).toBe(true);
          warmMs = Math.min(warmMs, (await timedCall(api.url, c, image, key, served)).analysisMs);
          before = balance();
          charged = api.api.credits.chargedCount(keyId);
          ended = await disconnectingCall(api.url, c, image, key, served, fraction * warmMs);
        }
        expect(ended, `client left at ${fraction} of ${Math.round(warmMs)} ms`).toBe('aborted');
        expect(await eventually(() => heldMicrocents() === 0, HOLD_RELEASE_MS), `hold after leaving at ${fraction}`).toBe(true);
        expect(balance()).toBe(before);
      }
      // The next caller is served (after the cancelled work has unwound) and nothing escaped.
      expect((await timedCall(api.url, c, image, key, served)).status).toBe(200);
      expect(unhandled).toEqual([]);
      expect(api.api.credits.chargedCount(keyId)).toBe(charged + 1);
      expect(heldMicrocents()).toBe(0);
    });
  }
});
