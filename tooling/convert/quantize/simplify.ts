/**
 * Float-graph simplifications that make a converted model quantisable without changing what it
 * computes (up to float rounding): weights as plain float32 constants, per-channel affine ops
 * (folded batch norm) and bias adds folded into the convolution, and ReLU6 spelled as one Clip.
 * onnxruntime fuses DequantizeLinear → Conv → (Relu|Clip) → QuantizeLinear into one int8 QLinearConv
 * only when nothing else sits between the convolution and its quantisation.
 */
import { OnnxType } from '../onnx-proto';
import { floatInit, GraphIndex, prune, renameUses, type OnnxModel, type OnnxNode } from './onnx-model';

let counter = 0;
const fresh = (prefix: string): string => `${prefix}_q${++counter}`;

/** Conv weights and biases that are computed from constants become float32 initializers. */
export function materialiseWeights(m: OnnxModel): void {
  const g = new GraphIndex(m);
  for (const n of m.graph.node) {
    if (n.opType !== 'Conv' && n.opType !== 'Gemm') continue;
    for (let k = 1; k < n.input.length; k++) {
      const name = n.input[k]!;
      if (!name || (g.inits.has(name) && g.inits.get(name)!.dataType === OnnxType.float)) continue;
      const c = g.constFloats(name);
      if (!c) continue;
      const init = floatInit(fresh('w'), c.dims, c.values);
      m.graph.initializer.push(init);
      n.input[k] = init.name;
    }
  }
  prune(m);
}

/** Per-output-channel values of a constant broadcast against NCHW [1,C,H,W]: scalar, [C] or [1,C,1,1]. */
function perChannel(values: Float32Array, dims: number[], channels: number): Float32Array | undefined {
  const size = dims.reduce((a, b) => a * b, 1);
  if (size === 1) return new Float32Array(channels).fill(values[0]!);
  const ok = size === channels && (dims.length === 1 || (dims.length === 4 && dims[0] === 1 && dims[1] === channels));
  return ok ? values : undefined;
}

/** Folds Conv → Mul(const) and Conv → Add(const) into the convolution's weights and bias. */
export function foldAffineIntoConv(m: OnnxModel): number {
  let folded = 0;
  for (;;) {
    const g = new GraphIndex(m);
    let changed = false;
    for (const conv of m.graph.node) {
      if (conv.opType !== 'Conv') continue;
      const next = g.soleConsumer(conv.output[0]!);
      if (!next || (next.opType !== 'Mul' && next.opType !== 'Add')) continue;
      const other = next.input[0] === conv.output[0] ? next.input[1]! : next.input[0]!;
      const c = g.constFloats(other);
      const w = g.inits.get(conv.input[1]!);
      if (!c || !w || w.dataType !== OnnxType.float) continue;
      const channels = w.dims[0]!;
      const per = perChannel(c.values, c.dims, channels);
      if (!per) continue;
      const weights = new Float32Array(w.rawData.slice().buffer);
      const biasInit = conv.input[2] ? g.inits.get(conv.input[2]) : undefined;
      const bias = biasInit ? new Float32Array(biasInit.rawData.slice().buffer) : new Float32Array(channels);
      if (next.opType === 'Mul') {
        const perOut = weights.length / channels;
        for (let o = 0; o < channels; o++) {
          for (let k = 0; k < perOut; k++) weights[o * perOut + k]! *= per[o]!;
          bias[o]! *= per[o]!;
        }
      } else {
        for (let o = 0; o < channels; o++) bias[o]! += per[o]!;
      }
      const wNew = floatInit(fresh('w'), w.dims, weights);
      const bNew = floatInit(fresh('b'), [channels], bias);
      m.graph.initializer.push(wNew, bNew);
      conv.input = [conv.input[0]!, wNew.name, bNew.name];
      // The convolution now produces what the Mul/Add produced.
      renameUses(m, next.output[0]!, conv.output[0]!);
      for (const o of m.graph.output) if (o.name === next.output[0]) o.name = conv.output[0]!;
      m.graph.node = m.graph.node.filter((n) => n !== next);
      changed = true;
      folded++;
      break;
    }
    if (!changed) break;
  }
  prune(m);
  return folded;
}

function scalarConst(g: GraphIndex, name: string): number | undefined {
  const c = g.constFloats(name);
  return c && c.values.length === 1 ? c.values[0] : undefined;
}

/** Relu → Min(6) [→ Max(0)] becomes Clip(0, 6). */
export function relu6AsClip(m: OnnxModel): number {
  const g = new GraphIndex(m);
  let n6 = 0;
  const drop = new Set<OnnxNode>();
  for (const relu of m.graph.node) {
    if (relu.opType !== 'Relu') continue;
    const min = g.soleConsumer(relu.output[0]!);
    if (min?.opType !== 'Min') continue;
    const six = scalarConst(g, min.input[0] === relu.output[0] ? min.input[1]! : min.input[0]!);
    if (six === undefined || six <= 0) continue;
    let last: OnnxNode = min;
    const max = g.soleConsumer(min.output[0]!);
    if (max?.opType === 'Max' && scalarConst(g, max.input[0] === min.output[0] ? max.input[1]! : max.input[0]!) === 0) last = max;
    const lo = floatInit(fresh('lo'), [], new Float32Array([0]));
    const hi = floatInit(fresh('hi'), [], new Float32Array([six]));
    m.graph.initializer.push(lo, hi);
    relu.opType = 'Clip';
    relu.input = [relu.input[0]!, lo.name, hi.name];
    renameUses(m, last.output[0]!, relu.output[0]!);
    for (const o of m.graph.output) if (o.name === last.output[0]) o.name = relu.output[0]!;
    drop.add(min);
    if (last !== min) drop.add(last);
    n6++;
  }
  m.graph.node = m.graph.node.filter((n) => !drop.has(n));
  prune(m);
  return n6;
}

export function simplify(m: OnnxModel): { folded: number; relu6: number } {
  // Fresh names start over per model: a model's bytes must not depend on what was simplified before.
  counter = 0;
  materialiseWeights(m);
  const folded = foldAffineIntoConv(m);
  const relu6 = relu6AsClip(m);
  return { folded, relu6 };
}
