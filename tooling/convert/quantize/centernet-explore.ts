/**
 * Measurement: can CenterNet run as int8 (docs/models.md "CenterNet int8")? Captures the inputs
 * the product feeds CenterNet (letterboxed, trimmed frames) while analysing the calibration images
 * (test/fixtures/people every 4th + test/fixtures/negatives) and the fixture photos
 * (test/fixtures/images, judged only), rewrites the float graph (hard-swish as one op, spatial
 * ReduceMean as GlobalAveragePool), plans the wide QDQ plan (plan-wide.ts) with the heatmap logits
 * forced to uint8, calibrates min/max and percentile ranges, and for each variant prints:
 * detections kept vs float on the fixture photos (score ≥ 0.2, same label and IoU > 0.5), the
 * largest heatmap change, and float vs int8 time per run (alternating blocks, CPU and wall).
 *   tsx tooling/convert/quantize/centernet-explore.ts [--sensitivity] [--threads N]
 * --sensitivity also quantises one tensor at a time and ranks the tensors by the mean heatmap
 * change they cause on calibration inputs (never the judged photos); the variants then keep the
 * 10 and 30 most sensitive float.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { arg } from '../build';
import { calibratePercentiles, type Feeds, type TensorRange } from './calibrate';
import { FeedRecorder } from './capture';
import { floatManifestJson } from './float-source';
import { decodeModel, encodeModel, type OnnxModel } from './onnx-model';
import { planWide, squeezeExciteConvs, type WidePlanOptions } from './plan-wide';
import { applyQdq } from './qdq';
import { hardSwishAsOne, reduceMeanAsGlobalPool, simplify } from './simplify';

const root = join(import.meta.dirname, '../../..');
const modelsDir = join(root, 'models');
const ID = 'centernet';
/** Intra-op threads of the timed sessions (the product gives CenterNet all cores: 2 here). */
const threads = Number(arg('--threads') ?? 2);
/** Heatmap score floor of the product's detections (src-main/analysis/objects DETECTION.minScore). */
const MIN_SCORE = 0.2;
/** Every 4th captured calibration input is used for the ranges (the histogram pass is slow in JS). */
const CALIBRATION_STEP = 4;

import { EXACT_INTEGER_KERNELS, type TensorMap } from '../../../src-main/inference';
const { InferenceEngine, parseManifest } = await import('../../../src-main/inference');
const { createImageLoader, intakeOptions } = await import('../../../src-main/intake');
const { createAnalyzeService } = await import('../../../src-main/services/analyze.service');
const { centernetDecode, DETECTION } = await import('../../../src-main/analysis/objects');

const images = (dir: string, step = 1) =>
  readdirSync(join(root, dir))
    .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
    .sort()
    .filter((_, i) => i % step === 0)
    .map((f) => join(root, dir, f));

async function capture(files: string[]): Promise<Feeds[]> {
  const floatJson = floatManifestJson(JSON.parse(readFileSync(join(modelsDir, 'manifest.json'), 'utf8')));
  const engine = new InferenceEngine(parseManifest(floatJson), { modelsDir, intraOpNumThreads: 2 });
  const recorder = new FeedRecorder(engine, new Set([ID]));
  const loader = createImageLoader(intakeOptions('desktop'));
  const service = createAnalyzeService({ runModel: recorder, faceRunner: recorder, loader });
  for (const f of files) await service.analyze(f);
  await loader.close();
  await engine.dispose();
  return recorder.feeds.get(ID) ?? [];
}

const tensors = (f: Feeds) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor('float32', v.data, v.dims)]));
const calib = await capture([...images('test/fixtures/people', 4), ...images('test/fixtures/negatives')]);
const held = await capture(images('test/fixtures/images'));
const calibSub = calib.filter((_, i) => i % CALIBRATION_STEP === 0);

const floatBytes = readFileSync(join(modelsDir, ID + '.onnx'));
function rewritten(): OnnxModel {
  const m = decodeModel(floatBytes);
  simplify(m);
  hardSwishAsOne(m);
  reduceMeanAsGlobalPool(m);
  return m;
}
const base = rewritten();
/** The heatmap logits (input of the output Sigmoid): quantised, so the 80-class head runs as int8. */
const logits = base.graph.node.find(
  (n) => n.opType === 'Sigmoid' && base.graph.node.some((t) => t.opType === 'Transpose' && t.input[0] === n.output[0]),
)!.input[0]!;
const stemInput = base.graph.node.find((n) => n.opType === 'Conv')!.input[0]!;
const seConvNames = new Set([...squeezeExciteConvs(base)].map((n) => n.output[0]));
const stemAndSe: WidePlanOptions['floatConv'] = (n) => n.input[0] === stemInput || seConvNames.has(n.output[0]);
const widePlan = planWide(base, { force: new Set([logits]) });
const t0 = performance.now();
const { minmax, byPercentile } = await calibratePercentiles(base, widePlan.activations, calibSub, [99.99, 99.999]);
process.stderr.write(`calibrated on ${calibSub.length} of ${calib.length} captured inputs (${Math.round(performance.now() - t0)} ms)\n`);

function int8(ranges: Map<string, TensorRange>, o: WidePlanOptions, only?: Set<string>): Uint8Array {
  const m = rewritten();
  const plan = planWide(m, { ...o, force: new Set([logits]) });
  if (only) {
    plan.activations = plan.activations.filter((t) => only.has(t));
    plan.convs = plan.convs.filter((c) => only.has(c.input[0]!));
  }
  const r = new Map(ranges);
  for (const [a, b] of plan.tied) r.set(b, r.get(a)!);
  applyQdq(m, plan, r);
  return encodeModel(m);
}

/** Sessions as the product opens them (src-main/inference/session.ts): all optimisations, no spinning threads, exact integer kernels. */
const session = (bytes: Uint8Array, n = 2) =>
  ort.InferenceSession.create(bytes, {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: n,
    extra: { session: { intra_op: { allow_spinning: '0' }, ...EXACT_INTEGER_KERNELS } },
  });
const floatSession = await session(floatBytes);
/** Outputs as the product's decoder takes them (both are float32). */
const heat = async (s: ort.InferenceSession, f: Feeds): Promise<TensorMap> => (await s.run(tensors(f))) as unknown as TensorMap;
const refHeld = await Promise.all(held.map((f) => heat(floatSession, f)));

type Box = { left: number; top: number; width: number; height: number };
function iou(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left));
  const h = Math.max(0, Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top));
  return (w * h) / (a.width * a.height + b.width * b.height - w * h);
}

/** Detections of the float model kept by the int8 one on the judged photos, and the largest score/heatmap changes. */
async function judge(bytes: Uint8Array): Promise<string> {
  const s = await session(bytes);
  let total = 0;
  let kept = 0;
  let extra = 0;
  let scoreDiff = 0;
  let heatDiff = 0;
  for (const [k, f] of held.entries()) {
    const out = await heat(s, f);
    const [h, w] = [f['input']!.dims[1]!, f['input']!.dims[2]!];
    const opts = { ...DETECTION, minScore: MIN_SCORE };
    const a = centernetDecode(refHeld[k]!, w, h, opts, [512, 512]);
    const b = centernetDecode(out, w, h, opts, [512, 512]);
    const x = refHeld[k]!['heatmap']!.data as Float32Array;
    const y = out['heatmap']!.data as Float32Array;
    for (let i = 0; i < x.length; i++) heatDiff = Math.max(heatDiff, Math.abs(x[i]! - y[i]!));
    for (const d of a) {
      total++;
      const m = b.find((e) => e.label === d.label && iou(d.box, e.box) > 0.5);
      if (m) {
        kept++;
        scoreDiff = Math.max(scoreDiff, Math.abs(m.score - d.score));
      }
    }
    extra += b.filter((e) => !a.some((d) => d.label === e.label && iou(d.box, e.box) > 0.5)).length;
  }
  await s.release();
  return `kept ${kept}/${total}, new ${extra}, max score change ${scoreDiff.toFixed(3)}, max heatmap change ${heatDiff.toFixed(3)}`;
}

/** Float vs int8 per run, alternating blocks (A, B, B, A …) on one trimmed fixture frame. */
async function speed(bytes: Uint8Array): Promise<string> {
  const f = held.find((x) => x['input']!.dims[1] === 384) ?? held[0]!;
  const [a, b] = [await session(floatBytes, threads), await session(bytes, threads)];
  const feeds = tensors(f);
  for (let i = 0; i < 2; i++) {
    await a.run(feeds);
    await b.run(feeds);
  }
  const st = [0, 1].map(() => ({ wall: [] as number[], cpu: 0, runs: 0 }));
  for (let r = 0; r < 8; r++) {
    for (const k of r % 2 ? [1, 0] : [0, 1]) {
      const s = k ? b : a;
      const c0 = process.cpuUsage();
      for (let i = 0; i < 4; i++) {
        const w0 = performance.now();
        await s.run(feeds);
        st[k]!.wall.push(performance.now() - w0);
      }
      const c = process.cpuUsage(c0);
      st[k]!.cpu += (c.user + c.system) / 1000;
      st[k]!.runs += 4;
    }
  }
  await a.release();
  await b.release();
  const med = (xs: number[]) => [...xs].sort((p, q) => p - q)[xs.length >> 1]!;
  const [fw, qw, fc, qc] = [med(st[0]!.wall), med(st[1]!.wall), st[0]!.cpu / st[0]!.runs, st[1]!.cpu / st[1]!.runs];
  return `${f['input']!.dims.slice(1, 3).join('×')} frame, ${threads} thread(s): float ${fw.toFixed(1)} / ${fc.toFixed(1)} ms, int8 ${qw.toFixed(1)} / ${qc.toFixed(1)} ms (wall / CPU), ×${(fc / qc).toFixed(2)} CPU, ×${(fw / qw).toFixed(2)} wall, load ${loadavg()[0]!.toFixed(1)}`;
}

const p9999 = byPercentile.get(99.99)!;
const variants: [string, Map<string, TensorRange>, WidePlanOptions][] = [
  ['everything int8, min/max', minmax, {}],
  ['everything int8, 99.99 %', p9999, {}],
  ['everything int8, 99.999 %', byPercentile.get(99.999)!, {}],
  ['stem and squeeze-excite float, 99.99 %', p9999, { floatConv: stemAndSe }],
];

if (process.argv.includes('--sensitivity')) {
  // One tensor at a time on calibration inputs: mean |Δ score| over cells where either model scores ≥ 0.1.
  const probe = calib.filter((_, i) => i % 8 === 4).slice(0, 12);
  const refCalib = await Promise.all(probe.map((f) => heat(floatSession, f)));
  const planned = planWide(base, { force: new Set([logits]), floatConv: stemAndSe }).activations;
  const rows: { t: string; mean: number }[] = [];
  for (const t of planned) {
    const s = await session(int8(p9999, { floatConv: stemAndSe }, new Set([t])));
    let sum = 0;
    let n = 0;
    for (const [k, f] of probe.entries()) {
      const x = refCalib[k]!['heatmap']!.data as Float32Array;
      const y = (await heat(s, f))['heatmap']!.data as Float32Array;
      for (let i = 0; i < x.length; i++) {
        if (x[i]! < 0.1 && y[i]! < 0.1) continue;
        sum += Math.abs(x[i]! - y[i]!);
        n++;
      }
    }
    await s.release();
    rows.push({ t, mean: sum / Math.max(1, n) });
  }
  rows.sort((a, b) => b.mean - a.mean);
  console.log(
    `sensitivity (${probe.length} calibration inputs), top 15: ${rows
      .slice(0, 15)
      .map((r) => `${r.t} ${r.mean.toFixed(4)}`)
      .join(', ')}`,
  );
  for (const top of [10, 30]) {
    const keepFloat = new Set(rows.slice(0, top).map((r) => r.t));
    variants.push([
      `stem, squeeze-excite and the ${top} most sensitive tensors float, 99.99 %`,
      p9999,
      { floatConv: stemAndSe, keepFloat },
    ]);
  }
}

for (const [name, ranges, o] of variants) {
  const bytes = int8(ranges, o);
  console.log(`${name}: ${await judge(bytes)}; ${await speed(bytes)}`);
}
await floatSession.release();
