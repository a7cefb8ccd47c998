/**
 * `npm run bench -- analyze`: all analyze features on ≤ 1 MP fixture photos with one face,
 * including file read and decode, with the app's engine (2 ONNX Runtime threads, face models at
 * one). Modes, alternated image by image so machine load hits all alike: `in-process` (every stage
 * on this thread); `worker` (objects and NSFW in the analyze worker at 1 or 2 ONNX Runtime threads
 * per session, while the faces and pixel statistics run here); `worker + pixels` (the pixel
 * statistics in the worker too). For each: the median total per image, the overall median, the
 * CPU time of all threads per image (which, unlike wall time, does not grow when other processes
 * load the machine) and the per-stage medians (stages overlap). Then each stage alone, with
 * CenterNet at 1 and 2 threads. Copied into docs/benchmarks.md ("## Analyze").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  analyzePixels,
  detectObjects,
  runContentNet,
  faceEvidenceFromResults,
  measurePixels,
  runModelBranch,
  type AnalyzeDeps,
  type ModelBranch,
} from '../../src-main/analysis';
import { detectFacesInImage, selectorPlan } from '../../src-main/analysis/faces';
import { loadConfig } from '../../src-main/config';
import { decodeImage, InferenceEngine, loadManifest } from '../../src-main/inference';
import { analyzeBranchWorker } from '../../src-main/services/analyze-worker';
import { ANALYZE_MIN_HEAD_SCALE, analyzeModelsFromEngine } from '../../src-main/services/analyze.service';
import { openLocalEngine } from '../../src-main/services/local-engine';
import { VISUAL_FEATURES, DETAILS } from '../../src-main/shared/spec';
import { fixture, repoRoot } from '../helpers/paths';
import { median } from '../helpers/bench-args';

const ROUNDS = 15;
const IMAGES = ['tom_cruise.jpg', 'obama_portrait.jpg', 'biden_portrait.jpg', 'grace_hopper.jpg', 'astronaut_eileen_collins.jpg'];

const modelsDir = join(repoRoot, 'models');
const config = { ...loadConfig(), modelsDir, modelThreads: 2 };
const engine = openLocalEngine(config);
const models = analyzeModelsFromEngine(engine);
const faceOptions = { minHeadScale: ANALYZE_MIN_HEAD_SCALE, selector: selectorPlan(['FRONTAL']) };
const inProcess: AnalyzeDeps = {
  runModel: models.runModel,
  detectFaces: async (img, signal) =>
    faceEvidenceFromResults(await detectFacesInImage({ ...img, channels: 3 }, faceOptions, models.faceRunner!, signal)),
};
const fallback: ModelBranch = (img, want, signal) => runModelBranch(img, want, models.runModel, signal);
const branch1 = analyzeBranchWorker(config, { fallback, threads: 1 });
const branch2 = analyzeBranchWorker(config, { fallback, threads: 2 });
const modes: Record<string, AnalyzeDeps> = {
  'in-process': inProcess,
  'worker, 1 thread': { ...inProcess, modelBranch: branch1.run },
  'worker, 2 threads': { ...inProcess, modelBranch: branch2.run },
  'worker + pixels, 1 thread': { ...inProcess, modelBranch: branch1.run, pixelsInBranch: true },
};
const features = new Set(VISUAL_FEATURES);
const details = new Set(DETAILS);
const bytes = IMAGES.map((f) => readFileSync(fixture(f)));

async function once(b: Buffer, deps: AnalyzeDeps): Promise<Record<string, number>> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const img = await decodeImage(b, { maxPixels: 50_000_000 });
  const decode = performance.now() - t0;
  const { timingsMs } = await analyzePixels(img, features, details, deps);
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // CPU time of all threads (JS, libvips, ONNX Runtime, the worker): independent of other load.
  return { decode, ...timingsMs, total, cpu: (cpu.user + cpu.system) / 1000 };
}

for (const deps of Object.values(modes)) for (const b of bytes) await once(b, deps); // load and warm every model
const perImage: Record<string, number[][]> = {};
const stages: Record<string, Record<string, number[]>> = {};
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, b] of bytes.entries()) {
    for (const [mode, deps] of Object.entries(modes)) {
      const t = await once(b, deps);
      ((perImage[mode] ??= [])[i] ??= []).push(t['total']!);
      for (const [k, v] of Object.entries(t)) ((stages[mode] ??= {})[k] ??= []).push(v);
    }
  }
}
console.log(`image | pixels | median total ms (all features, incl. decode): ${Object.keys(modes).join(' | ')}`);
for (const [i, b] of bytes.entries()) {
  const img = await decodeImage(b, { maxPixels: 50_000_000 });
  const cells = Object.keys(modes).map((m) => median(perImage[m]![i]!).toFixed(1));
  console.log(`${IMAGES[i]} | ${img.width}×${img.height} | ${cells.join(' | ')}`);
}
for (const mode of Object.keys(modes)) {
  const s = stages[mode]!;
  const totals = [...s['total']!].sort((a, b) => a - b);
  console.log(
    `\n${mode}: median ${median(totals).toFixed(1)} ms, p90 ${totals[Math.floor(totals.length * 0.9)]!.toFixed(1)} ms (target ≤ 100 ms median); CPU time of all threads per image: median ${median(s['cpu']!).toFixed(1)} ms`,
  );
  console.log(
    '  per-stage medians (concurrent):',
    Object.entries(s)
      .filter(([k]) => k !== 'total' && k !== 'cpu')
      .map(([k, v]) => `${k} ${median(v).toFixed(1)}`)
      .join(' | '),
  );
}
await branch1.close();
await branch2.close();

// Each stage alone, sequentially, on the first image: where the time goes (wall and CPU).
const img = await decodeImage(bytes[0]!, { maxPixels: 50_000_000 });
const oneThread = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
const alone: Record<string, () => Promise<unknown>> = {
  decode: () => decodeImage(bytes[0]!, { maxPixels: 50_000_000 }),
  'objects (2 threads)': () => detectObjects(img, models.runModel),
  'objects (1 thread)': () => detectObjects(img, oneThread),
  nsfw: () => runContentNet(img, models.runModel),
  faces: () => detectFacesInImage(img, faceOptions, engine),
  pixels: () => measurePixels(img),
};
const sequential: string[] = [];
for (const [k, f] of Object.entries(alone)) {
  await f();
  const ts: number[] = [];
  const cpus: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await f();
    ts.push(performance.now() - t0);
    const cpu = process.cpuUsage(cpu0);
    cpus.push((cpu.user + cpu.system) / 1000);
  }
  sequential.push(`${k} ${median(ts).toFixed(1)} (CPU ${median(cpus).toFixed(1)})`);
}
console.log(`\neach stage alone on ${IMAGES[0]} (median wall ms, CPU ms):`, sequential.join(' | '));
await oneThread.dispose();
await engine.dispose();
