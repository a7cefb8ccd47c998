/**
 * Activation ranges for static quantisation: the float model runs on captured real inputs with
 * the tensors to quantise exposed as extra graph outputs; each tensor's range is the min/max over
 * all calibration inputs, optionally with the top fraction of values clipped as outliers.
 */
import * as ort from 'onnxruntime-node';
import { OnnxType } from '../onnx-proto';
import { encodeModel, type OnnxModel } from './onnx-model';

export interface TensorRange {
  min: number;
  max: number;
}

export type Feeds = Record<string, { dtype: string; dims: number[]; data: Float32Array | Uint8Array }>;

export async function calibrate(m: OnnxModel, tensors: string[], feeds: Feeds[]): Promise<Map<string, TensorRange>> {
  const probe: OnnxModel = structuredClone(m);
  const existing = new Set(probe.graph.output.map((o) => o.name));
  for (const t of tensors) if (!existing.has(t)) probe.graph.output.push({ name: t, type: { tensorType: { elemType: OnnxType.float } } });
  const session = await ort.InferenceSession.create(encodeModel(probe), { graphOptimizationLevel: 'basic', intraOpNumThreads: 1 });
  const ranges = new Map<string, TensorRange>();
  for (const f of feeds) {
    const input = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.dtype as 'float32', v.data, v.dims)]));
    const out = await session.run(input, tensors);
    for (const t of tensors) {
      const d = out[t]!.data as Float32Array;
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < d.length; i++) {
        const v = d[i]!;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      const r = ranges.get(t);
      ranges.set(t, r ? { min: Math.min(r.min, lo), max: Math.max(r.max, hi) } : { min: lo, max: hi });
    }
  }
  await session.release();
  return ranges;
}

/**
 * Ranges rounded outwards (min down, max up) to `digits` significant digits: the int8 build then
 * gives the same bytes when float runs differ in the last bits (other CPUs, other thread counts).
 */
export function roundOutward(ranges: Map<string, TensorRange>, digits: number): Map<string, TensorRange> {
  const round = (v: number, up: boolean): number => {
    if (v === 0 || !Number.isFinite(v)) return v;
    const step = 10 ** (Math.floor(Math.log10(Math.abs(v))) - digits + 1);
    return (up ? Math.ceil(v / step) : Math.floor(v / step)) * step;
  };
  return new Map([...ranges].map(([t, r]) => [t, { min: round(r.min, false), max: round(r.max, true) }]));
}

/** Histogram bins per tensor for percentile ranges (over the tensor's min/max). */
const HISTOGRAM_BINS = 4096;

/**
 * Percentile ranges: per tensor, the values below the (100 − p) % and above the p % point of all
 * calibration values are clipped (two passes: min/max, then a histogram of HISTOGRAM_BINS bins
 * between them; bounds are bin edges, outwards). The range always contains 0. One map per
 * percentile asked for, plus the plain min/max (`minmax`).
 */
export async function calibratePercentiles(
  m: OnnxModel,
  tensors: string[],
  feeds: Feeds[],
  percentiles: number[],
): Promise<{ minmax: Map<string, TensorRange>; byPercentile: Map<number, Map<string, TensorRange>> }> {
  const minmax = await calibrate(m, tensors, feeds);
  const probe: OnnxModel = structuredClone(m);
  const existing = new Set(probe.graph.output.map((o) => o.name));
  for (const t of tensors) if (!existing.has(t)) probe.graph.output.push({ name: t, type: { tensorType: { elemType: OnnxType.float } } });
  const session = await ort.InferenceSession.create(encodeModel(probe), { graphOptimizationLevel: 'basic', intraOpNumThreads: 1 });
  const hist = new Map(tensors.map((t) => [t, new Float64Array(HISTOGRAM_BINS)]));
  const count = new Map(tensors.map((t) => [t, 0]));
  for (const f of feeds) {
    const input = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.dtype as 'float32', v.data, v.dims)]));
    const out = await session.run(input, tensors);
    for (const t of tensors) {
      const { min, max } = minmax.get(t)!;
      const width = (max - min) / HISTOGRAM_BINS || 1;
      const h = hist.get(t)!;
      const d = out[t]!.data as Float32Array;
      for (let i = 0; i < d.length; i++) h[Math.min(HISTOGRAM_BINS - 1, Math.floor((d[i]! - min) / width))]!++;
      count.set(t, count.get(t)! + d.length);
    }
  }
  await session.release();
  const byPercentile = new Map<number, Map<string, TensorRange>>();
  for (const p of percentiles) {
    const ranges = new Map<string, TensorRange>();
    for (const t of tensors) {
      const { min, max } = minmax.get(t)!;
      const width = (max - min) / HISTOGRAM_BINS;
      const h = hist.get(t)!;
      const tail = count.get(t)! * (1 - p / 100);
      let lo = 0;
      for (let acc = h[0]!; acc <= tail && lo < HISTOGRAM_BINS - 1; acc += h[++lo]!);
      let hi = HISTOGRAM_BINS - 1;
      for (let acc = h[hi]!; acc <= tail && hi > 0; acc += h[--hi]!);
      ranges.set(t, { min: Math.min(0, min + lo * width), max: Math.max(0, min + (hi + 1) * width) });
    }
    byPercentile.set(p, ranges);
  }
  return { minmax, byPercentile };
}
