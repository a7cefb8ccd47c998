import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runModelBranch, type BranchRequest } from '../../../src-main/analysis';
import { detectFacesInImage, selectorPlan, type FaceResult } from '../../../src-main/analysis/faces';
import { loadConfig } from '../../../src-main/config';
import { decodeImage, type ModelRunner } from '../../../src-main/inference';
import { analyzeBranchWorker } from '../../../src-main/services/analyze-worker';
import { ANALYZE_FACE_ATTRIBUTES, ANALYZE_MIN_HEAD_SCALE } from '../../../src-main/services/analyze.service';
import { openLocalEngine, openSpareCoreEngine } from '../../../src-main/services/local-engine';
import { spareCoreRunner } from '../../../src-main/services/spare-core-runner';
import { composedGroupPhoto } from '../../helpers/group-photo';
import { fixture } from '../../helpers/paths';

// The face models on two threads while the analyze worker's core is idle, on the real models.
const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-spare-')) }, {});
const narrow = openLocalEngine(config);
const wide = openSpareCoreEngine(config);
afterAll(async () => {
  await narrow.dispose();
  await wide.dispose();
});

/** Runs per model id through `runner`. */
function counted(runner: ModelRunner): { runner: ModelRunner; runs: Map<string, number> } {
  const runs = new Map<string, number>();
  return {
    runs,
    runner: {
      spec: (id) => runner.spec(id),
      run: (id, feeds, signal) => (runs.set(id, (runs.get(id) ?? 0) + 1), runner.run(id, feeds, signal)),
    },
  };
}

const analyzeFaces = { minHeadScale: ANALYZE_MIN_HEAD_SCALE, selector: selectorPlan(['FRONTAL']), attributes: ANALYZE_FACE_ATTRIBUTES };

/** What a face result says, its numbers rounded where two thread counts may differ in the last bits. */
const summary = (f: FaceResult) => ({
  box: [f.box.left, f.box.top, f.box.width, f.box.height].map((v) => Math.round(v)),
  eyes: [...f.leftEye, ...f.rightEye].map((v) => Math.round(v)),
  male: f.male >= 0.5,
  age: Math.round(f.ageYears),
  glasses: f.glasses,
  lips: f.lips,
});

describe('face models on the spare core', () => {
  it('runs the per-face models on the wide sessions only while the other core is idle, with the same faces', async () => {
    const img = await decodeImage(await composedGroupPhoto(12, 4), { maxPixels: 50_000_000 });
    const reference = await detectFacesInImage(img, analyzeFaces, narrow);
    expect(reference.length).toBeGreaterThanOrEqual(10);

    const busy = counted(wide);
    const whileBusy = await detectFacesInImage(
      img,
      analyzeFaces,
      spareCoreRunner(narrow, busy.runner, () => false),
    );
    expect(busy.runs.size).toBe(0);
    expect(whileBusy).toEqual(reference);

    const idle = counted(wide);
    const whileIdle = await detectFacesInImage(
      img,
      analyzeFaces,
      spareCoreRunner(narrow, idle.runner, () => true),
    );
    expect([...idle.runs.keys()].sort()).toEqual(['emotion', 'facemesh', 'faceres', 'gear']);
    expect(whileIdle.map(summary)).toEqual(reference.map(summary));
    for (const [i, f] of whileIdle.entries()) {
      expect(f.ageYears, `face ${i}`).toBeCloseTo(reference[i]!.ageYears, 2);
      expect(f.male, `face ${i}`).toBeCloseTo(reference[i]!.male, 3);
    }
  });

  it('the analyze worker is idle only while it runs with no call in hand', async () => {
    const img = await decodeImage(readFileSync(fixture('grace_hopper.jpg')), { maxPixels: 50_000_000 });
    const want: BranchRequest = { objects: true, nsfw: true, pixels: false };
    const worker = analyzeBranchWorker(config, { fallback: (i, w, s) => runModelBranch(i, w, narrow, s) });
    try {
      expect(worker.idle()).toBe(false); // not started
      const first = worker.run(img, want);
      expect(worker.idle()).toBe(false);
      await first;
      expect(worker.idle()).toBe(true);
      const second = worker.run(img, want);
      expect(worker.idle()).toBe(false);
      await second;
      expect(worker.idle()).toBe(true);
    } finally {
      await worker.close();
    }
    expect(worker.idle()).toBe(false);
  });
});
