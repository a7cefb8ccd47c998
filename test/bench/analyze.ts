/**
 * `npm run bench -- analyze`: all analyze features on ≤ 1 MP fixture photos with one face,
 * including file read and decode, on 2 ONNX Runtime threads. Prints the median total per image,
 * the overall median and the per-stage medians (model stages run concurrently, so they overlap),
 * then the sequential cost of each stage alone, and the CPU time of all threads per image (which,
 * unlike wall time, does not grow when other processes load the machine). Copied into
 * docs/benchmarks.md ("## Analyze").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzePixels, detectObjects, nsfwPreprocess, faceEvidenceFromResults, type AnalyzeDeps } from '../../src-main/analysis';
import { detectFacesInImage, engineRunner, parseSelector } from '../../src-main/analysis/faces';
import { decodeImage, InferenceEngine, loadManifest } from '../../src-main/inference';
import { ANALYZE_MIN_HEAD_SCALE, analyzeModelsFromEngine } from '../../src-main/services/analyze.service';
import { VISUAL_FEATURES, DETAILS } from '../../src-main/shared/spec';
import { fixture, repoRoot } from '../helpers/paths';

const ROUNDS = 15;
const IMAGES = ['tom_cruise.jpg', 'obama_portrait.jpg', 'biden_portrait.jpg', 'grace_hopper.jpg', 'astronaut_eileen_collins.jpg'];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const modelsDir = join(repoRoot, 'models');
const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 2 });
const models = analyzeModelsFromEngine(engine);
const faceOptions = { minHeadScale: ANALYZE_MIN_HEAD_SCALE, selector: parseSelector('FRONTAL')! };
const deps: AnalyzeDeps = {
  runModel: models.runModel,
  detectFaces: async (img, signal) =>
    faceEvidenceFromResults(await detectFacesInImage({ ...img, channels: 3 }, faceOptions, models.faceRunner!, signal)),
};
const features = new Set(VISUAL_FEATURES);
const details = new Set(DETAILS);
const bytes = IMAGES.map((f) => readFileSync(fixture(f)));

async function once(b: Buffer): Promise<Record<string, number>> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const img = await decodeImage(b, { maxPixels: 50_000_000 });
  const decode = performance.now() - t0;
  const { timingsMs } = await analyzePixels(img, features, details, deps);
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // CPU time of all threads (JS, libvips, ONNX Runtime): independent of other load on the machine.
  return { decode, ...timingsMs, total, cpu: (cpu.user + cpu.system) / 1000 };
}

for (const b of bytes) await once(b); // load and warm every model
const totals: number[] = [];
const stages: Record<string, number[]> = {};
console.log('image | pixels | median total ms (all features, incl. decode)');
for (const [i, b] of bytes.entries()) {
  const mine: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = await once(b);
    mine.push(t['total']!);
    totals.push(t['total']!);
    for (const [k, v] of Object.entries(t)) (stages[k] ??= []).push(v);
  }
  const img = await decodeImage(b, { maxPixels: 50_000_000 });
  console.log(`${IMAGES[i]} | ${img.width}×${img.height} | ${median(mine).toFixed(1)}`);
}
console.log(
  `\nall images: median ${median(totals).toFixed(1)} ms, p90 ${[...totals].sort((a, b) => a - b)[Math.floor(totals.length * 0.9)]!.toFixed(1)} ms (target ≤ 100 ms median)`,
);
const cpuMs = median(stages['cpu']!);
console.log(`CPU time of all threads per image: median ${cpuMs.toFixed(1)} ms (so ≥ ${(cpuMs / 2).toFixed(1)} ms wall on 2 idle cores)`);
console.log(
  'per-stage medians (concurrent):',
  Object.entries(stages)
    .map(([k, v]) => `${k} ${median(v).toFixed(1)}`)
    .join(' | '),
);

// Each stage alone, sequentially, on the first image: where the CPU time goes.
const img = await decodeImage(bytes[0]!, { maxPixels: 50_000_000 });
const alone: Record<string, () => Promise<unknown>> = {
  decode: () => decodeImage(bytes[0]!, { maxPixels: 50_000_000 }),
  objects: () => detectObjects(img, models.runModel),
  nsfw: () => models.runModel('nsfw-mobilenet-v2-mid', nsfwPreprocess(img)),
  faces: () => detectFacesInImage(img, faceOptions, engineRunner(engine)),
  'pixels+rules': () =>
    analyzePixels(img, new Set(['Color', 'ImageType'] as const), new Set(), {
      runModel: async () => ({ probabilities: { data: new Float32Array([0, 0, 1, 0, 0]), dims: [1, 5] } }),
    }),
};
const sequential: string[] = [];
for (const [k, f] of Object.entries(alone)) {
  const ts: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    await f();
    ts.push(performance.now() - t0);
  }
  sequential.push(`${k} ${median(ts).toFixed(1)}`);
}
console.log(`each stage alone on ${IMAGES[0]} (median ms):`, sequential.join(' | '));
await engine.dispose();
