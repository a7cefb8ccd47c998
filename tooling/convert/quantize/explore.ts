/**
 * Measurement: for each float model, fold → plan → calibrate (on captured inputs from calibration
 * images) → QDQ, then compare int8 with float on held-out captured inputs (output agreement) and
 * time both. Usage: tsx tooling/convert/quantize/explore.ts [model ids…]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { FeedRecorder } from './capture';
import { calibrate, type Feeds } from './calibrate';
import { decodeModel, encodeModel } from './onnx-model';
import { applyQdq, planQuantisation } from './qdq';
import { simplify } from './simplify';

const root = join(import.meta.dirname, '../../..');
const modelsDir = join(root, 'models');
const { InferenceEngine, parseManifest } = await import('../../../src-main/inference');
const { createImageLoader, intakeOptions } = await import('../../../src-main/intake');
const { analyzeModelsFromEngine, createAnalyzeService } = await import('../../../src-main/services/analyze.service');
const { floatManifestJson } = await import('./float-source');
// Float models throughout (int8 entries are replaced by the float files they were made from).
const floatJson = floatManifestJson(JSON.parse(readFileSync(join(modelsDir, 'manifest.json'), 'utf8')));
const engine = new InferenceEngine(parseManifest(floatJson), { modelsDir, intraOpNumThreads: 2 });
const recorder = new FeedRecorder(engine);
const loader = createImageLoader(intakeOptions('desktop'));
const service = createAnalyzeService({ ...analyzeModelsFromEngine(recorder), loader, faceAttributes: 'full' });

async function captureFrom(files: string[]): Promise<Map<string, Feeds[]>> {
  recorder.feeds.clear();
  for (const f of files) {
    try {
      await service.analyze(f);
    } catch (e) {
      console.error(f, (e as Error).message);
    }
  }
  return new Map([...recorder.feeds].map(([id, list]) => [id, list.slice(0, 64)]));
}
const dir = (d: string, n: number, step = 1) =>
  readdirSync(join(root, d))
    .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
    .filter((_, i) => i % step === 0)
    .slice(0, n)
    .map((f) => join(root, d, f));
const calibFiles = [...dir('test/fixtures/people', 40, 4), ...dir('test/fixtures/negatives', 30, 4)];
const evalFiles = dir('test/fixtures/images', 40);
const calib = await captureFrom(calibFiles);
const held = await captureFrom(evalFiles);

const ids = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['blazeface-back', 'centernet', 'facemesh', 'faceres', 'gear', 'nsfw-mobilenet-v2-mid', 'emotion'];
const manifest = floatJson;

async function timeRuns(s: ort.InferenceSession, feeds: Feeds[], reps: number): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    for (const f of feeds.slice(0, 8)) {
      const input = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.dtype as 'float32', v.data, v.dims)]));
      const t0 = performance.now();
      await s.run(input);
      times.push(performance.now() - t0);
    }
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

for (const id of ids) {
  const spec = manifest.models.find((m) => m.id === id)!;
  const calibFeeds = calib.get(id) ?? [];
  const heldFeeds = held.get(id) ?? [];
  if (!calibFeeds.length || !heldFeeds.length) {
    console.log(`${id}: no captured inputs (calib ${calibFeeds.length}, held ${heldFeeds.length})`);
    continue;
  }
  const m = decodeModel(readFileSync(join(modelsDir, spec.file)));
  const simp = simplify(m);
  const plan = planQuantisation(m);
  const ranges = await calibrate(m, plan.activations, calibFeeds);
  const floatBytes = encodeModel(m);
  applyQdq(m, plan, ranges);
  const qBytes = encodeModel(m);
  writeFileSync(`/tmp/${id}.int8.onnx`, qBytes);
  const opts = { ...EXACT_INTEGER_SESSION, graphOptimizationLevel: 'all' as const, intraOpNumThreads: 1 };
  const fs = await ort.InferenceSession.create(floatBytes, opts);
  const qs = await ort.InferenceSession.create(qBytes, opts);
  // Agreement on held-out inputs: cosine and max |diff| relative to the float output's range, per output.
  const agree: Record<string, { cos: number[]; rel: number[] }> = {};
  for (const f of heldFeeds) {
    const input = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.dtype as 'float32', v.data, v.dims)]));
    const a = await fs.run(input);
    const b = await qs.run(input);
    for (const name of fs.outputNames) {
      const x = a[name]!.data as Float32Array;
      const y = b[name]!.data as Float32Array;
      let dot = 0,
        nx = 0,
        ny = 0,
        mx = -Infinity,
        mn = Infinity,
        md = 0;
      for (let i = 0; i < x.length; i++) {
        dot += x[i]! * y[i]!;
        nx += x[i]! ** 2;
        ny += y[i]! ** 2;
        mx = Math.max(mx, x[i]!);
        mn = Math.min(mn, x[i]!);
        md = Math.max(md, Math.abs(x[i]! - y[i]!));
      }
      const e = (agree[name] ??= { cos: [], rel: [] });
      e.cos.push(dot / Math.sqrt(nx * ny || 1));
      e.rel.push(md / (mx - mn || 1));
    }
  }
  const tf = await timeRuns(fs, heldFeeds, 3);
  const tq = await timeRuns(qs, heldFeeds, 3);
  const tf2 = await timeRuns(fs, heldFeeds, 3);
  const tq2 = await timeRuns(qs, heldFeeds, 3);
  const summary = Object.entries(agree)
    .map(
      ([n, e]) =>
        `${n}: cos min ${Math.min(...e.cos).toFixed(4)} med ${e.cos.sort((a, b) => a - b)[e.cos.length >> 1]!.toFixed(4)} maxrel ${Math.max(...e.rel).toFixed(3)}`,
    )
    .join('; ');
  console.log(
    `${id}: folded ${simp.folded}, relu6 ${simp.relu6}, convs ${plan.convs.length}, acts ${plan.activations.length}, calib ${calibFeeds.length} held ${heldFeeds.length} | float ${tf.toFixed(2)}/${tf2.toFixed(2)} ms, int8 ${tq.toFixed(2)}/${tq2.toFixed(2)} ms, ×${((tf + tf2) / (tq + tq2)).toFixed(2)} | ${(floatBytes.length / 1e6).toFixed(1)} → ${(qBytes.length / 1e6).toFixed(1)} MB | ${summary}`,
  );
}
await loader.close();
await engine.dispose();
