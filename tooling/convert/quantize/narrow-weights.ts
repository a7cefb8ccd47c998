/**
 * Which convolutions get narrow (7-bit, −63..63) weights: on x86 CPUs without VNNI those run
 * onnxruntime's fast u8 × s8 kernels exactly, the others fall back to the slower exact u8 × u8
 * kernels (qdq.ts WEIGHT_LEVELS). Half the weight levels cost accuracy in some layers (all narrow:
 * faceres descriptor cosine 0.90, NSFW probabilities 0.96 against float), so the choice is greedy
 * by cost: the convolutions with the most multiply-adds first, each kept narrow only while every
 * output's worst cosine to the float model on the calibration inputs stays within
 * NARROW_WEIGHT_BUDGET of the all-8-bit graph's. Depthwise filters are never narrowed: their
 * kernel adds in int32 and is exact either way, so narrowing would only lose accuracy.
 */
import * as ort from 'onnxruntime-node';
import { cosine } from '../../../test/helpers/cosine';
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { OnnxType } from '../onnx-proto';
import type { Feeds, TensorRange } from './calibrate';
import { encodeModel, GraphIndex, type OnnxModel, type OnnxNode } from './onnx-model';
import { applyQdq, type QuantPlan } from './qdq';

/**
 * Largest loss of worst-case cosine (int8 vs float, per output, over the calibration inputs) that
 * narrow weights may add to the all-8-bit graph. Cumulative: every trial is judged against the
 * all-8-bit figures, not the previous trial's.
 */
export const NARROW_WEIGHT_BUDGET = 0.003;

/** Cosines are compared at this many decimals, so last-bit float differences between CPUs do not flip a choice. */
const SCORE_DECIMALS = 4;

export interface NarrowChoice {
  /** Weight initializer names of the narrowed convolutions. */
  narrow: Set<string>;
  /** Share of the quantised convolutions' multiply-adds that run narrow (0..1). */
  macShare: number;
  /** Quantised convolutions, and how many of them are narrow. */
  convs: number;
  /** Per output, worst cosine to float on the calibration inputs: all 8-bit, and with the choice. */
  full: Record<string, number>;
  chosen: Record<string, number>;
}

const tensors = (f: Feeds): Record<string, ort.Tensor> =>
  Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.dtype as 'float32', v.data, v.dims)]));

/** Runs a model on every feed; per output, the float values of each batch item. */
async function outputsOf(
  bytes: Uint8Array,
  feeds: Feeds[],
  opts: ort.InferenceSession.SessionOptions,
): Promise<Map<string, Float32Array[]>> {
  const s = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, ...opts });
  const out = new Map<string, Float32Array[]>();
  try {
    for (const f of feeds) {
      const r = await s.run(tensors(f));
      for (const name of s.outputNames) {
        const t = r[name]!;
        const data = t.data as Float32Array;
        const items = Number(t.dims[0] ?? 1) || 1;
        const per = data.length / items;
        const list = out.get(name) ?? out.set(name, []).get(name)!;
        for (let i = 0; i < items; i++) list.push(data.slice(i * per, (i + 1) * per));
      }
    }
  } finally {
    await s.release();
  }
  return out;
}

/** Per output, the worst cosine of `got` against `want`, floored to SCORE_DECIMALS. */
function worstCosines(want: Map<string, Float32Array[]>, got: Map<string, Float32Array[]>): Record<string, number> {
  const scale = 10 ** SCORE_DECIMALS;
  const worst: Record<string, number> = {};
  for (const [name, items] of want) {
    let w = 1;
    items.forEach((x, i) => (w = Math.min(w, cosine(x, got.get(name)![i]!))));
    worst[name] = Math.floor(w * scale) / scale;
  }
  return worst;
}

/** Multiply-adds of each convolution per batch item: weight elements × output pixels (one probe run). */
async function convCosts(m: OnnxModel, g: GraphIndex, convs: OnnxNode[], feed: Feeds): Promise<Map<OnnxNode, number>> {
  const probe: OnnxModel = structuredClone(m);
  const names = convs.map((c) => c.output[0]!);
  const existing = new Set(probe.graph.output.map((o) => o.name));
  for (const t of names) if (!existing.has(t)) probe.graph.output.push({ name: t, type: { tensorType: { elemType: OnnxType.float } } });
  const s = await ort.InferenceSession.create(encodeModel(probe), { graphOptimizationLevel: 'basic', intraOpNumThreads: 1 });
  try {
    const out = await s.run(tensors(feed), names);
    return new Map(
      convs.map((c) => {
        const w = g.inits.get(c.input[1]!)!;
        const pixels = out[c.output[0]!]!.dims.slice(2).reduce((a, b) => a * Number(b), 1);
        return [c, w.dims.reduce((a, b) => a * b, 1) * pixels];
      }),
    );
  } finally {
    await s.release();
  }
}

/** A depthwise convolution: one input channel per filter. */
const isDepthwise = (g: GraphIndex, c: OnnxNode): boolean => g.inits.get(c.input[1]!)!.dims[1] === 1;

/**
 * Chooses the narrow convolutions of a simplified float graph `m` (not modified) for `plan` and
 * `ranges`, judged on `feeds` against the float graph `floatBytes`.
 */
export async function chooseNarrowWeights(
  m: OnnxModel,
  plan: QuantPlan,
  ranges: Map<string, TensorRange>,
  feeds: Feeds[],
  floatBytes: Uint8Array,
): Promise<NarrowChoice> {
  const want = await outputsOf(floatBytes, feeds, {});
  const score = async (narrow: ReadonlySet<string>): Promise<Record<string, number>> => {
    const q: OnnxModel = structuredClone(m);
    applyQdq(q, structuredPlan(q, plan), ranges, narrow);
    return worstCosines(want, await outputsOf(encodeModel(q), feeds, { ...EXACT_INTEGER_SESSION, graphOptimizationLevel: 'all' }));
  };
  const g = new GraphIndex(m);
  const costs = await convCosts(m, g, plan.convs, feeds[0]!);
  const total = [...costs.values()].reduce((a, b) => a + b, 0);
  const candidates = plan.convs
    .filter((c) => !isDepthwise(g, c))
    .sort((a, b) => costs.get(b)! - costs.get(a)! || (a.input[1]! < b.input[1]! ? -1 : 1));
  const full = await score(new Set());
  const narrow = new Set<string>();
  let chosen = full;
  let macs = 0;
  for (const c of candidates) {
    const trial = new Set([...narrow, c.input[1]!]);
    const s = await score(trial);
    if (Object.keys(full).every((o) => s[o]! >= full[o]! - NARROW_WEIGHT_BUDGET)) {
      narrow.add(c.input[1]!);
      chosen = s;
      macs += costs.get(c)!;
    }
  }
  return { narrow, macShare: total ? macs / total : 0, convs: plan.convs.length, full, chosen };
}

/** The plan's convolutions as nodes of the clone `q` (applyQdq edits the nodes it is given). */
function structuredPlan(q: OnnxModel, plan: QuantPlan): QuantPlan {
  const byOutput = new Map(q.graph.node.map((n) => [n.output[0]!, n]));
  return { activations: plan.activations, convs: plan.convs.map((c) => byOutput.get(c.output[0]!)!) };
}
