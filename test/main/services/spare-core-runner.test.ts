import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels, runModelBranch, type AnalyzeDeps, type BranchRequest } from '../../../src-main/analysis';
import { detectFacesInImage, selectorPlan, type FaceResult } from '../../../src-main/analysis/faces';
import { loadConfig } from '../../../src-main/config';
import { decodeImage, type ModelRunner, type TensorMap } from '../../../src-main/inference';
import { analyzeBranchWorker, type BranchWorker } from '../../../src-main/services/analyze-worker';
import { openLocalEngine, openSpareCoreEngine } from '../../../src-main/services/local-engine';
import { otherCoreRunner, spareCoreRunner, type OtherCore } from '../../../src-main/services/spare-core-runner';
import type { VisualFeature } from '../../../src-main/shared/spec';
import { composedGroupPhoto } from '../../helpers/group-photo';
import { fixture } from '../../helpers/paths';

// The face models on the analyze worker's core while it is idle (two-thread sessions for the
// per-face models, detector windows run in the worker itself), on the real models and a real worker.
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

/** What a face result says, its numbers rounded where two thread counts may differ in the last bits. */
const summary = (f: FaceResult) => ({
  box: [f.box.left, f.box.top, f.box.width, f.box.height].map((v) => Math.round(v)),
  eyes: [...f.leftEye, ...f.rightEye].map((v) => Math.round(v)),
  male: f.male >= 0.5,
  age: Math.round(f.ageYears),
  glasses: f.glasses,
  lips: f.lips,
});

/** The analyze worker's core with its model runs counted per model id. */
function countedCore(worker: BranchWorker): { core: OtherCore; handed: Map<string, number> } {
  const handed = new Map<string, number>();
  return {
    handed,
    core: {
      idle: () => worker.idle(),
      runModel: (id, feeds, local, signal) => (handed.set(id, (handed.get(id) ?? 0) + 1), worker.runModel(id, feeds, local, signal)),
    },
  };
}

/** A started analyze worker (its first call starts it). */
async function startedWorker(): Promise<BranchWorker> {
  const worker = analyzeBranchWorker(config, { fallback: (i, w, s) => runModelBranch(i, w, narrow, s) });
  const img = await decodeImage(readFileSync(fixture('grace_hopper.jpg')), { maxPixels: 50_000_000 });
  await worker.run(img, { objects: false, nsfw: true, pixels: false });
  return worker;
}

/** Detect's own search (the spec's smallest heads: the most windows). */
const detectFaces = { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']) };

describe('face models on the spare core', () => {
  it('runs the per-face models on the wide sessions and detector windows in the worker only while it is idle, with the same faces', async () => {
    const img = await decodeImage(await composedGroupPhoto(12, 4), { maxPixels: 50_000_000 });
    const reference = await detectFacesInImage(img, detectFaces, narrow);
    expect(reference.length).toBeGreaterThanOrEqual(10);
    const worker = await startedWorker();
    try {
      const busy = counted(wide);
      const busyCore = countedCore(worker);
      const whileBusy = await detectFacesInImage(
        img,
        detectFaces,
        spareCoreRunner(narrow, busy.runner, { ...busyCore.core, idle: () => false }),
      );
      expect(busy.runs.size).toBe(0);
      expect(busyCore.handed.size).toBe(0);
      expect(whileBusy).toEqual(reference);

      const idle = counted(wide);
      const idleCore = countedCore(worker);
      const stats = { windows: 0 } as NonNullable<Parameters<typeof detectFacesInImage>[1]['stats']>;
      const whileIdle = await detectFacesInImage(img, { ...detectFaces, stats }, spareCoreRunner(narrow, idle.runner, idleCore.core));
      expect([...idle.runs.keys()].sort()).toEqual(['emotion', 'facemesh', 'faceres', 'gear']);
      // The window search keeps two runs in flight: one goes to the idle worker, the next runs here.
      expect([...idleCore.handed.keys()]).toEqual(['blazeface-back']);
      expect(idleCore.handed.get('blazeface-back')!).toBeGreaterThanOrEqual(Math.floor(stats.windows / 3));
      expect(idleCore.handed.get('blazeface-back')!).toBeLessThan(stats.windows);
      expect(whileIdle.map(summary)).toEqual(reference.map(summary));
      for (const [i, f] of whileIdle.entries()) {
        expect(f.ageYears, `face ${i}`).toBeCloseTo(reference[i]!.ageYears, 2);
        expect(f.male, `face ${i}`).toBeCloseTo(reference[i]!.male, 3);
        // The detector's sessions are alike here and there (one thread): the same boxes exactly.
        expect(f.box, `face ${i}`).toEqual(reference[i]!.box);
      }
    } finally {
      await worker.close();
    }
  });

  it('runs a model in the worker with the outputs of this thread, and here once the worker is closed', async () => {
    const spec = narrow.spec('blazeface-back');
    const input = spec.inputs[0]!;
    const data = new Float32Array(input.shape.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = ((i * 7919) % 256) / 127.5 - 1;
    const feeds: TensorMap = { [input.name]: { data, dims: [...input.shape] } };
    const here = await narrow.run('blazeface-back', feeds);
    const worker = await startedWorker();
    const local = counted(narrow);
    try {
      const there = await worker.runModel('blazeface-back', feeds, local.runner);
      expect(local.runs.size).toBe(0);
      expect(Object.keys(there).sort()).toEqual(Object.keys(here).sort());
      for (const k of Object.keys(here)) expect(Array.from(there[k]!.data)).toEqual(Array.from(here[k]!.data));
      expect(feeds[input.name]!.data.length).toBe(data.length); // copied, not transferred: the caller's buffer stays usable
    } finally {
      await worker.close();
    }
    const after = await worker.runModel('blazeface-back', feeds, local.runner);
    expect(local.runs.get('blazeface-back')).toBe(1);
    expect(Array.from(after[Object.keys(here)[0]!]!.data)).toEqual(Array.from(here[Object.keys(here)[0]!]!.data));
  });

  it("runs analyze's subject segmenter on the worker's core while the faces run, here once they are done, with the branch's subject", async () => {
    // The cat photo: the detector and the classifier see a cat, so DeepLab runs (subject/gate.ts).
    const img = await decodeImage(readFileSync(fixture('cat_chelsea.jpg')), { maxPixels: 50_000_000 });
    const features = new Set<VisualFeature>(['Categories', 'Tags', 'Description', 'Color', 'ImageType']);
    const worker = await startedWorker();
    try {
      const base: AnalyzeDeps = { runModel: narrow, modelBranch: worker.run, detectFaces: async () => [] };
      // Before: inside the branch, on the worker's one thread.
      const inBranch = await analyzePixels(img, features, new Set(), base);
      expect(inBranch.timingsMs['subject']).toBeGreaterThan(0); // the branch's own timing
      expect(inBranch.data.color!.dominantColorForeground).toBeTruthy();
      /** Runs `deps` with the faces done at once, or pending until the segmenter has started. */
      const withSubjectModels = async (facesPending: boolean) => {
        let started!: () => void;
        const segmenterStarted = new Promise<void>((resolve) => (started = resolve));
        const signalled = (runner: ModelRunner): ModelRunner => ({
          spec: (id) => runner.spec(id),
          run: (id, feeds, signal) => (started(), runner.run(id, feeds, signal)),
        });
        const here = counted(narrow);
        const there = countedCore(worker);
        const result = await analyzePixels(img, features, new Set(), {
          ...base,
          detectFaces: async () => (facesPending ? (await segmenterStarted, []) : []),
          subjectModels: { here: signalled(here.runner), there: signalled(otherCoreRunner(narrow, there.core)) },
        });
        return { result, here: here.runs, there: there.handed };
      };
      const done = await withSubjectModels(false);
      expect(done.here.get('deeplabv3-pascal')).toBe(1);
      expect(done.there.size).toBe(0);
      const pending = await withSubjectModels(true);
      expect(pending.there.get('deeplabv3-pascal')).toBe(1);
      expect(pending.here.size).toBe(0);
      for (const after of [done, pending]) {
        expect(after.result.timingsMs['subject']).toBeGreaterThan(0);
        // DeepLab is an integer graph: the same mask at one thread or two, so the same answer.
        expect(after.result.data).toEqual(inBranch.data);
      }
    } finally {
      await worker.close();
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
