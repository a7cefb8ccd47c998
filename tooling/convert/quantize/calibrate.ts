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
