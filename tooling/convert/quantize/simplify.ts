/**
 * Float-graph simplifications that make a converted model quantisable without changing what it
 * computes (up to float rounding): weights as plain float32 constants, per-channel affine ops
 * (folded batch norm) and bias adds folded into the convolution before them (or, after an
 * activation, into the unpadded one after them: fold-affine-forward.ts), and ReLU6 spelled as one Clip.
 * onnxruntime fuses DequantizeLinear → Conv → (Relu|Clip) → QuantizeLinear into one int8 QLinearConv
 * only when nothing else sits between the convolution and its quantisation.
 */
import { OnnxType } from '../onnx-proto';
import { foldAffineIntoNextConv } from './fold-affine-forward';
import { floatInit, GraphIndex, perChannel, prune, renameUses, type OnnxModel, type OnnxNode } from './onnx-model';

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

export function simplify(m: OnnxModel): { folded: number; foldedForward: number; relu6: number } {
  // Fresh names start over per model: a model's bytes must not depend on what was simplified before.
  counter = 0;
  materialiseWeights(m);
  const folded = foldAffineIntoConv(m);
  const foldedForward = foldAffineIntoNextConv(m, fresh);
  const relu6 = relu6AsClip(m);
  return { folded, foldedForward, relu6 };
}

/**
 * MobileNetV3's hard-swish as TF.js spells it, `Mul(x, 1/6) · Clip(Add(x, 3), 0, 6)`, becomes one
 * `HardSwish(x)` node (opset 14; the same function). Not part of `simplify()`: the shipped int8
 * models have no hard-swish, and CenterNet, which has 20, stays float (docs/models.md). Used by
 * the CenterNet int8 measurement (`centernet-explore.ts`). Returns the number of patterns replaced.
 */
export function hardSwishAsOne(m: OnnxModel): number {
  const g = new GraphIndex(m);
  // The constants are float16 in the converted graph: 1/6 is stored as 0.16663.
  const near = (name: string, v: number): boolean => {
    const c = scalarConst(g, name);
    return c !== undefined && Math.abs(c - v) <= 1e-3 * Math.max(1, Math.abs(v));
  };
  const only = (n: OnnxNode): boolean => g.consumers.get(n.output[0]!)?.length === 1 && !g.graphOutputs.has(n.output[0]!);
  const drop = new Set<OnnxNode>();
  let count = 0;
  for (const mul of m.graph.node) {
    if (mul.opType !== 'Mul' || mul.input.length !== 2) continue;
    const [a, b] = mul.input.map((i) => g.producer.get(i));
    const sixth = a?.opType === 'Mul' ? a : b?.opType === 'Mul' ? b : undefined;
    const clip = a?.opType === 'Clip' ? a : b?.opType === 'Clip' ? b : undefined;
    if (!sixth || !clip || clip.input.length !== 3 || !near(clip.input[1]!, 0) || !near(clip.input[2]!, 6)) continue;
    const x = sixth.input.find((i) => scalarConst(g, i) === undefined);
    if (!x || !sixth.input.some((i) => near(i, 1 / 6))) continue;
    const add = g.producer.get(clip.input[0]!);
    if (add?.opType !== 'Add' || !add.input.includes(x) || !add.input.some((i) => i !== x && near(i, 3))) continue;
    if (![sixth, clip, add].every(only)) continue;
    mul.opType = 'HardSwish';
    mul.input = [x];
    drop.add(sixth).add(clip).add(add);
    count++;
  }
  m.graph.node = m.graph.node.filter((n) => !drop.has(n));
  prune(m);
  return count;
}

/**
 * `ReduceMean` over the spatial axes of an NCHW tensor with kept dims (squeeze-and-excite) becomes
 * `GlobalAveragePool` (the same values): onnxruntime runs that as an int8 kernel in a QDQ graph
 * (QLinearGlobalAveragePool) and in its blocked float layout, which it does not for ReduceMean.
 * Opt-in like hardSwishAsOne. Returns the number of nodes changed.
 */
export function reduceMeanAsGlobalPool(m: OnnxModel): number {
  let count = 0;
  for (const n of m.graph.node) {
    if (n.opType !== 'ReduceMean' || n.input.length !== 1) continue;
    const axes = n.attribute.find((a) => a.name === 'axes')?.ints?.map(Number);
    const keep = n.attribute.find((a) => a.name === 'keepdims');
    const spatial = axes?.length === 2 && ((axes[0] === 2 && axes[1] === 3) || (axes[0] === -2 && axes[1] === -1));
    if (!spatial || (keep && Number(keep.i) !== 1)) continue;
    n.opType = 'GlobalAveragePool';
    n.attribute = [];
    count++;
  }
  return count;
}
