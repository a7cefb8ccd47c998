// The shipped int8 models against the float models they were quantised from, on the inputs the
// product feeds them while analysing the shared fixture photos (test/fixtures/images: never the
// calibration images): per-output cosine floors and decision agreement, every convolution fused
// into an int8 QLinearConv by onnxruntime, the manifest's float source intact, and the quantiser
// on a graph with a symbolic batch dimension (the converter's batched per-face models).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InferenceEngine, parseManifest } from '../../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../../src-main/intake';
import { createAnalyzeService } from '../../../src-main/services/analyze.service';
import { repoRoot } from '../../../test/helpers/paths';
import type { ManifestEntry } from '../build';
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { quantizeGraph } from './build';
import type { Feeds } from './calibrate';
import { FeedRecorder } from './capture';
import { floatManifestJson } from './float-source';
import { int8Specs } from './int8-specs';
import { decodeModel, encodeModel, GraphIndex } from './onnx-model';
import { WEIGHT_LEVELS } from './qdq';
import { cosine } from '../../../test/helpers/cosine';

const modelsDir = join(repoRoot, 'models');
const manifest = JSON.parse(readFileSync(join(modelsDir, 'manifest.json'), 'utf8')) as { version: number; models: ManifestEntry[] };
const entry = (id: string) => manifest.models.find((e) => e.id === id)!;

/**
 * Floors per output, from the measured agreement on the fixture inputs (docs/models.md) with a
 * margin: cosine of int8 vs float output vectors (min over inputs), and for class outputs the
 * largest probability difference. The decisions the product takes (top class, gender side of 0.5)
 * must not change.
 */
const FLOORS: Record<string, { cosine: Record<string, number>; maxProbDiff?: Record<string, number> }> = {
  gear: { cosine: { age: 0.985, gender: 0.995, race: 0.985 }, maxProbDiff: { age: 0.1, gender: 0.05, race: 0.12 } },
  faceres: { cosine: { descriptor: 0.985, age: 0.97, gender: 0.99 }, maxProbDiff: { gender: 0.1 } },
  'nsfw-mobilenet-v2-mid': { cosine: { probabilities: 0.97, features: 0.975 }, maxProbDiff: { probabilities: 0.15 } },
};
/** Outputs whose top class the product reads. */
const TOP_CLASS: Record<string, string[]> = { gear: ['gender', 'race'], 'nsfw-mobilenet-v2-mid': ['probabilities'] };

const images = readdirSync(join(repoRoot, 'test/fixtures/images'))
  .filter((f) => /\.(jpe?g|png)$/i.test(f))
  .sort()
  .map((f) => join(repoRoot, 'test/fixtures/images', f));

let feeds = new Map<string, Feeds[]>();

beforeAll(async () => {
  // The float models in the product's analyze pipeline, recording what each model is fed.
  const engine = new InferenceEngine(parseManifest(floatManifestJson(manifest)), { modelsDir, intraOpNumThreads: 2 });
  const recorder = new FeedRecorder(engine, new Set(int8Specs.map((s) => s.id)));
  const loader = createImageLoader(intakeOptions('desktop'));
  // Every face's attribute crops (the full level), as the int8 models were calibrated on.
  const service = createAnalyzeService({ runModel: recorder, faceRunner: recorder, loader, faceAttributes: 'full' });
  for (const file of images) await service.analyze(file);
  await loader.close();
  await engine.dispose();
  feeds = new Map([...recorder.feeds].map(([id, list]) => [id, list.flatMap(singleItems)]));
}, 300_000);

/** A recorded feed split along the batch axis: the per-face models get all faces of an image in one run. */
function singleItems(f: Feeds): Feeds[] {
  const entries = Object.entries(f);
  const n = entries[0]![1].dims[0]!;
  return Array.from({ length: n }, (_, i) =>
    Object.fromEntries(
      entries.map(([k, v]) => {
        const per = v.data.length / n;
        return [k, { ...v, dims: [1, ...v.dims.slice(1)], data: v.data.subarray(i * per, (i + 1) * per) }];
      }),
    ),
  );
}

const tensors = (f: Feeds) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor('float32', v.data, v.dims)]));
const dataOf = (out: ort.InferenceSession.ReturnType, name: string) => out[name]!.data as Float32Array;

const argmax = (p: Float32Array) => p.indexOf(Math.max(...p));

const sessions: ort.InferenceSession[] = [];
afterAll(async () => {
  for (const s of sessions) await s.release();
});

describe('int8 models agree with their float sources', () => {
  it('every int8 model of int8-specs.ts is shipped under its id, quantised from the float file beside it', () => {
    for (const { id } of int8Specs) {
      const e = entry(id);
      expect(e.precision, id).toBe('int8');
      expect(e.quantizedFrom?.calibration, id).toMatch(/test\/fixtures\/people.*test\/fixtures\/negatives/);
      const float = readFileSync(join(modelsDir, e.quantizedFrom!.file));
      expect(createHash('sha256').update(float).digest('hex'), id).toBe(e.quantizedFrom!.sha256);
      expect(e.bytes, id).toBeLessThan(e.quantizedFrom!.bytes * 1.1);
      // The file's narrow (7-bit) filters are the ones the manifest states (narrow-weights.ts).
      const stated = /7-bit weights \(−63\.\.63\) in (\d+) of (\d+) convolutions/.exec(e.quantizedFrom!.method);
      expect(stated, id).not.toBeNull();
      const g = new GraphIndex(decodeModel(readFileSync(join(modelsDir, e.file))));
      const filters = [...g.inits.values()].filter((i) => i.name.startsWith('wq_'));
      const levels = filters.map((i) => new Int8Array(i.rawData.slice().buffer).reduce((a, v) => Math.max(a, Math.abs(v)), 0));
      expect(filters.length, id).toBe(Number(stated![2]));
      expect(levels.filter((l) => l <= WEIGHT_LEVELS.narrow).length, id).toBe(Number(stated![1]));
      expect(
        levels.every((l) => l <= WEIGHT_LEVELS.narrow || l === WEIGHT_LEVELS.full),
        id,
      ).toBe(true);
    }
  });

  for (const { id } of int8Specs) {
    it(`${id}: int8 kernels, outputs within the floors on the fixture photos`, async () => {
      const e = entry(id);
      const floatBytes = readFileSync(join(modelsDir, e.quantizedFrom!.file));
      const optimized = join(mkdtempSync(join(tmpdir(), 'int8-')), 'opt.onnx');
      const qs = await ort.InferenceSession.create(join(modelsDir, e.file), {
        ...EXACT_INTEGER_SESSION,
        graphOptimizationLevel: 'all',
        optimizedModelFilePath: optimized,
        intraOpNumThreads: 1,
      });
      const fs = await ort.InferenceSession.create(floatBytes, { intraOpNumThreads: 1 });
      sessions.push(qs, fs);
      // Every convolution of the float graph runs as QLinearConv.
      const convs = decodeModel(floatBytes).graph.node.filter((n) => n.opType === 'Conv').length;
      const ops = decodeModel(readFileSync(optimized)).graph.node.map((n) => n.opType);
      rmSync(optimized, { force: true });
      expect(convs).toBeGreaterThanOrEqual(5);
      expect(ops.filter((o) => o === 'QLinearConv').length).toBe(convs);

      const list = feeds.get(id) ?? [];
      expect(list.length, `${id} inputs from the fixtures`).toBeGreaterThanOrEqual(id === 'nsfw-mobilenet-v2-mid' ? images.length : 10);
      const floors = FLOORS[id]!;
      const worst: Record<string, { cos: number; diff: number }> = {};
      for (const [k, f] of list.entries()) {
        const a = await fs.run(tensors(f));
        const b = await qs.run(tensors(f));
        for (const name of Object.keys(floors.cosine)) {
          const [x, y] = [dataOf(a, name), dataOf(b, name)];
          let diff = 0;
          for (let i = 0; i < x.length; i++) diff = Math.max(diff, Math.abs(x[i]! - y[i]!));
          const w = (worst[name] ??= { cos: 1, diff: 0 });
          w.cos = Math.min(w.cos, cosine(x, y));
          w.diff = Math.max(w.diff, diff);
          if (TOP_CLASS[id]?.includes(name)) expect(argmax(y), `${id} ${name} input ${k}`).toBe(argmax(x));
          if (id === 'faceres' && name === 'gender') expect(y[0]! > 0.5, `${id} gender input ${k}`).toBe(x[0]! > 0.5);
        }
      }
      console.log(`${id} (${list.length} inputs): ${JSON.stringify(worst)}`);
      for (const [name, floor] of Object.entries(floors.cosine))
        expect(worst[name]!.cos, `${id} ${name} cosine`).toBeGreaterThanOrEqual(floor);
      for (const [name, max] of Object.entries(floors.maxProbDiff ?? {}))
        expect(worst[name]!.diff, `${id} ${name} max difference`).toBeLessThanOrEqual(max);
    }, 180_000);
  }

  it('quantises a graph with a symbolic batch dimension: batch N gives what N single runs give', async () => {
    const m = decodeModel(readFileSync(join(modelsDir, entry('gear').quantizedFrom!.file)));
    const input = m.graph.input[0] as { type: { tensorType: { shape: { dim: object[] } } } };
    input.type.tensorType.shape.dim[0] = { dimParam: 'N' };
    for (const o of m.graph.output as { type: { tensorType: { shape: { dim: object[] } } } }[])
      o.type.tensorType.shape.dim[0] = { dimParam: 'N' };
    const single = feeds.get('gear')!.slice(0, 3);
    const name = Object.keys(single[0]!)[0]!;
    const per = single[0]![name]!.data.length;
    const batch = new Float32Array(per * single.length);
    single.forEach((f, k) => batch.set(f[name]!.data as Float32Array, k * per));
    const batched: Feeds = { [name]: { dtype: 'float32', dims: [single.length, ...single[0]![name]!.dims.slice(1)], data: batch } };
    // Calibrating on one batched feed or on the single feeds sees the same values.
    const q = (await quantizeGraph(encodeModel(m), [batched], 'gear with batch N')).bytes;
    expect(Buffer.compare(q, (await quantizeGraph(encodeModel(m), single, 'gear with batch N')).bytes)).toBe(0);
    const s = await ort.InferenceSession.create(q, { ...EXACT_INTEGER_SESSION, intraOpNumThreads: 1 });
    sessions.push(s);
    const all = await s.run(tensors(batched));
    for (const [k, f] of single.entries()) {
      const one = await s.run(tensors(f));
      for (const out of s.outputNames) {
        const b = dataOf(all, out);
        const size = b.length / single.length;
        const x = dataOf(one, out);
        for (let i = 0; i < size; i++) expect(b[k * size + i]).toBeCloseTo(x[i]!, 5);
      }
    }
  }, 120_000);
});
