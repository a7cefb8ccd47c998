/**
 * Batched per-face inference on the real models: `runOnWindows` gives each window the outputs a
 * run of its own gives (within 1e-4 relative), chunks at `FACE_BATCH_LIMIT` crops per run, and the
 * face pipeline runs each per-face model in as few runs as the limits allow (facemesh: two
 * passes). The run counter wraps the real engine.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFacesInImage, selectorPlan } from '../../../../src-main/analysis/faces';
import { meshCandidate, meshCandidates } from '../../../../src-main/analysis/faces/landmarks';
import { detectCandidates } from '../../../../src-main/analysis/faces/detector';
import { searchLevels } from '../../../../src-main/analysis/faces/detect-faces';
import { FACE_BATCH_LIMIT, runOnWindow, runOnWindows, type FaceModelId } from '../../../../src-main/analysis/faces/runner';
import { decodeImage, type ModelRunner, type Window } from '../../../../src-main/inference';
import { fixture } from '../../../helpers/paths';
import { openFaceStack } from './fixture-eval';

const stack = openFaceStack(1);
afterAll(() => stack.close());

/** The engine, counting runs and batch sizes per model. */
function counting(): { runner: ModelRunner; runs: Map<string, number[]> } {
  const runs = new Map<string, number[]>();
  return {
    runs,
    runner: {
      spec: (id) => stack.engine.spec(id),
      run: (id, feeds, signal) => {
        runs.set(id, [...(runs.get(id) ?? []), Object.values(feeds)[0]!.dims[0]!]);
        return stack.engine.run(id, feeds, signal);
      },
    },
  };
}

const load = (name: string) => decodeImage(readFileSync(fixture(name)), { maxPixels: 50e6 });

function expectClose(got: Float32Array, want: Float32Array, what: string): void {
  expect(got.length, what).toBe(want.length);
  let worst = 0;
  want.forEach((b, k) => (worst = Math.max(worst, Math.abs(got[k]! - b) / Math.max(1, Math.abs(b)))));
  expect(worst, what).toBeLessThanOrEqual(1e-4);
}

describe('runOnWindows', () => {
  it('a batch of windows, chunked, equals one run per window for each per-face model', async () => {
    const img = await load('family_six_faces.jpg');
    // More windows than one chunk holds, of different sizes, angles and places (some off the image).
    const wins: Window[] = Array.from({ length: 11 }, (_, i) => ({
      cx: 80 + i * 70,
      cy: 120 + (i % 4) * 60,
      size: 60 + i * 9,
      angleRad: (i - 5) * 0.1,
    }));
    for (const id of ['facemesh', 'faceres', 'gear', 'emotion'] as FaceModelId[]) {
      const { runner, runs } = counting();
      const batched = await runOnWindows(runner, id, img, wins);
      const limit = FACE_BATCH_LIMIT[id];
      const chunks = Array.from({ length: Math.ceil(wins.length / limit) }, (_, k) => Math.min(limit, wins.length - k * limit));
      expect(runs.get(id), id).toEqual(chunks);
      for (const [i, w] of wins.entries()) {
        const single = await runOnWindow(stack.runner, id, img, w);
        for (const [name, data] of Object.entries(single)) expectClose(batched[i]![name]!, data, `${id} window ${i} ${name}`);
      }
    }
  }, 120_000);

  it('no windows, no run', async () => {
    const { runner, runs } = counting();
    expect(await runOnWindows(runner, 'gear', await load('grace_hopper.jpg'), [])).toEqual([]);
    expect(runs.size).toBe(0);
  });
});

describe('batched face pipeline', () => {
  it('meshes all candidates as each alone would be meshed', async () => {
    const img = await load('family_six_faces.jpg');
    const opts = { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']) };
    const candidates = await detectCandidates(img, searchLevels(img, opts), stack.runner);
    expect(candidates.length).toBeGreaterThanOrEqual(6);
    const all = await meshCandidates(img, candidates, stack.runner);
    for (const [i, c] of candidates.entries()) {
      const one = await meshCandidate(img, c, stack.runner);
      expect(all[i] === null, `candidate ${i}`).toBe(one === null);
      if (!one) continue;
      expect(all[i]!.window).toEqual(one.window);
      expect(all[i]!.faceScore).toBeCloseTo(one.faceScore, 4);
      all[i]!.mesh.forEach((p, k) => p.forEach((v, d) => expect(Math.abs(v - one.mesh[k]![d]!)).toBeLessThan(1e-2)));
    }
  }, 120_000);

  it('runs the per-face models in chunks of their limit for six faces, and no attribute model with skipAttributes', async () => {
    const img = await load('family_six_faces.jpg');
    const { runner, runs } = counting();
    const faces = await detectFacesInImage(img, { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']) }, runner);
    expect(faces).toHaveLength(6);
    const chunksOf = (id: FaceModelId, n: number): number[] =>
      Array.from({ length: Math.ceil(n / FACE_BATCH_LIMIT[id]) }, (_, k) => Math.min(FACE_BATCH_LIMIT[id], n - k * FACE_BATCH_LIMIT[id]));
    expect(runs.get('faceres')).toEqual(chunksOf('faceres', 6));
    expect(runs.get('gear')).toEqual(chunksOf('gear', 6));
    expect(runs.get('emotion')).toEqual(chunksOf('emotion', 6));
    // Two passes (every candidate, then the re-crops), each in full chunks but its last.
    const mesh = runs.get('facemesh')!;
    expect(mesh.filter((n) => n < FACE_BATCH_LIMIT.facemesh).length).toBeLessThanOrEqual(2);
    expect(Math.max(...mesh)).toBe(FACE_BATCH_LIMIT.facemesh);
    const bare = counting();
    const again = await detectFacesInImage(
      img,
      { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']), skipAttributes: true },
      bare.runner,
    );
    expect(again.map((f) => f.box)).toEqual(faces.map((f) => f.box));
    expect([...bare.runs.keys()].sort()).toEqual(['blazeface-back', 'facemesh', 'faceres']);
  }, 120_000);
});
