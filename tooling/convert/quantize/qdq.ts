/**
 * Static QDQ quantisation of a simplified float graph (simplify.ts), in the layout onnxruntime
 * fuses into int8 kernels (QLinearConv, QLinearAdd):
 * - activations: uint8, asymmetric, one scale and zero point per tensor, from calibrated ranges;
 * - convolution weights: int8, symmetric, one scale per output channel (axis 0);
 * - convolution biases: int32 with scale = activation scale × weight scale, zero point 0.
 * Each quantised tensor gets one QuantizeLinear → DequantizeLinear pair shared by all its consumers.
 */
import { OnnxType } from '../onnx-proto';
import { floatInit, GraphIndex, intAttr, typedInit, type OnnxModel, type OnnxNode } from './onnx-model';
import type { TensorRange } from './calibrate';

/** Ops whose float output range makes a following ReLU/Clip redundant once quantised (ORT drops them). */
const REMOVABLE_ACTIVATIONS = new Set(['Relu', 'Clip']);

/**
 * Ops between a network's last convolutions and its outputs: layout ops, and the squashing
 * functions whose input logits need more than 256 levels (a uint8 step of a detector's logit
 * range turns low scores into noise). Convolutions that feed outputs only through these keep a
 * float output.
 */
const HEAD_OPS = new Set(['Reshape', 'Transpose', 'Identity', 'Flatten', 'Squeeze', 'Unsqueeze', 'Concat', 'Sigmoid', 'Softmax']);

/** Tensors that reach a graph output through head ops only. */
export function headTensors(g: GraphIndex): Set<string> {
  const heads = new Set<string>();
  const stack = [...g.graphOutputs];
  while (stack.length) {
    const t = stack.pop()!;
    if (heads.has(t)) continue;
    heads.add(t);
    const p = g.producer.get(t);
    if (p && HEAD_OPS.has(p.opType)) for (const i of p.input) if (i && !g.inits.has(i)) stack.push(i);
  }
  return heads;
}

/** uint8 activation range: 0..255. */
const U8_MAX = 255;

/**
 * Largest weight level of a convolution: symmetric −127..127 (−128 unused, as ORT does), or the
 * narrow −63..63 ("7-bit"). x86 CPUs without VNNI multiply u8 activations by s8 weights with
 * `vpmaddubsw`, which adds each pair of products in a saturating int16: 2 · 255 · 127 overflows it,
 * 2 · 255 · 63 = 32 130 does not. onnxruntime's exact-kernel option (EXACT_INTEGER_KERNELS) rewrites
 * only the filters that need more than 7 bits to u8 (slower u8 × u8 kernels), so a narrow filter
 * keeps the fast kernel and stays exact. With VNNI both run the same kernel.
 */
export const WEIGHT_LEVELS = { full: 127, narrow: 63 } as const;

export interface QuantPlan {
  /** Float tensors that get a Q → DQ pair. */
  activations: string[];
  /** Convolutions whose weights and bias become int8/int32 constants. */
  convs: OnnxNode[];
}

/** Decides which tensors to quantise: every Conv's input and output (after a removable activation), both sides of an Add of two activations. */
export function planQuantisation(m: OnnxModel, opTypes: ReadonlySet<string> = new Set(['Conv', 'Add'])): QuantPlan {
  const g = new GraphIndex(m);
  const acts = new Set<string>();
  const heads = headTensors(g);
  const outputOf = (n: OnnxNode): string => {
    const out = n.output[0]!;
    const next = g.soleConsumer(out);
    return next && REMOVABLE_ACTIVATIONS.has(next.opType) ? next.output[0]! : out;
  };
  const convs: OnnxNode[] = [];
  for (const n of m.graph.node) {
    if (n.opType === 'Conv' && opTypes.has('Conv') && g.inits.get(n.input[1]!)?.dataType === OnnxType.float) {
      convs.push(n);
      acts.add(n.input[0]!);
      if (!heads.has(outputOf(n))) acts.add(outputOf(n));
    } else if (n.opType === 'Add' && opTypes.has('Add') && n.input.every((i) => !g.inits.has(i) && !g.constFloats(i))) {
      for (const i of n.input) acts.add(i);
      if (!heads.has(outputOf(n))) acts.add(outputOf(n));
    }
  }
  return { activations: [...acts], convs };
}

interface QParams {
  scale: number;
  zeroPoint: number;
}

export function uint8Params(r: TensorRange): QParams {
  const lo = Math.min(0, r.min);
  const hi = Math.max(0, r.max);
  const scale = hi > lo ? (hi - lo) / U8_MAX : 1;
  return { scale, zeroPoint: Math.min(U8_MAX, Math.max(0, Math.round(-lo / scale))) };
}

export function quantiseWeightsPerChannel(
  w: Float32Array,
  channels: number,
  levels: number = WEIGHT_LEVELS.full,
): { q: Int8Array; scales: Float32Array } {
  const per = w.length / channels;
  const q = new Int8Array(w.length);
  const scales = new Float32Array(channels);
  for (let o = 0; o < channels; o++) {
    let amax = 0;
    for (let k = 0; k < per; k++) amax = Math.max(amax, Math.abs(w[o * per + k]!));
    const s = amax > 0 ? amax / levels : 1;
    scales[o] = s;
    for (let k = 0; k < per; k++) q[o * per + k] = Math.max(-levels, Math.min(levels, Math.round(w[o * per + k]! / s)));
  }
  return { q, scales };
}

/**
 * Rewrites `m` by `plan`: Q/DQ pairs on the planned activations, int8 weights (narrow levels for the
 * convolutions whose weight initializer is in `narrow`, narrow-weights.ts) and int32 biases.
 */
export function applyQdq(m: OnnxModel, plan: QuantPlan, ranges: Map<string, TensorRange>, narrow: ReadonlySet<string> = new Set()): void {
  const g = new GraphIndex(m);
  const params = new Map<string, QParams>();
  const added: OnnxNode[] = [];
  let k = 0;
  const dqOf = new Map<string, string>();
  for (const t of plan.activations) {
    const r = ranges.get(t);
    if (!r) throw new Error(`no calibrated range for ${t}`);
    const p = uint8Params(r);
    params.set(t, p);
    k++;
    const s = floatInit(`qs_${k}`, [], new Float32Array([p.scale]));
    const z = typedInit(`qz_${k}`, [], OnnxType.uint8, new Uint8Array([p.zeroPoint]));
    m.graph.initializer.push(s, z);
    const q = `${t}_q`;
    const dq = `${t}_dq`;
    added.push(
      { name: `Q_${k}`, opType: 'QuantizeLinear', domain: '', input: [t, s.name, z.name], output: [q], attribute: [] },
      { name: `DQ_${k}`, opType: 'DequantizeLinear', domain: '', input: [q, s.name, z.name], output: [dq], attribute: [] },
    );
    dqOf.set(t, dq);
  }
  // Every consumer reads the dequantised tensor (graph outputs keep the float tensor).
  for (const n of m.graph.node) n.input = n.input.map((i) => dqOf.get(i) ?? i);

  for (const conv of plan.convs) {
    const w = g.inits.get(conv.input[1]!)!;
    const channels = w.dims[0]!;
    const levels = narrow.has(w.name) ? WEIGHT_LEVELS.narrow : WEIGHT_LEVELS.full;
    const { q, scales } = quantiseWeightsPerChannel(new Float32Array(w.rawData.slice().buffer), channels, levels);
    k++;
    const wq = typedInit(`wq_${k}`, w.dims, OnnxType.int8, q);
    const ws = floatInit(`ws_${k}`, [channels], scales);
    const wz = typedInit(`wz_${k}`, [channels], OnnxType.int8, new Int8Array(channels));
    m.graph.initializer.push(wq, ws, wz);
    const wdq = `${conv.input[1]}_dq`;
    added.push({
      name: `DQW_${k}`,
      opType: 'DequantizeLinear',
      domain: '',
      input: [wq.name, ws.name, wz.name],
      output: [wdq],
      attribute: [intAttr('axis', 0)],
    });
    const xName = conv.input[0]!.replace(/_dq$/, '');
    const xs = params.get(xName)?.scale;
    const inputs = [conv.input[0]!, wdq];
    if (conv.input[2] && xs !== undefined) {
      const b = new Float32Array(g.inits.get(conv.input[2])!.rawData.slice().buffer);
      const bs = Float32Array.from(scales, (s) => s * xs);
      const bq = Int32Array.from(b, (v, c) => Math.round(v / bs[c]!));
      const bqi = typedInit(`bq_${k}`, [channels], OnnxType.int32, bq);
      const bsi = floatInit(`bs_${k}`, [channels], bs);
      const bzi = typedInit(`bz_${k}`, [channels], OnnxType.int32, new Int32Array(channels));
      m.graph.initializer.push(bqi, bsi, bzi);
      const bdq = `${conv.input[2]}_dq`;
      added.push({
        name: `DQB_${k}`,
        opType: 'DequantizeLinear',
        domain: '',
        input: [bqi.name, bsi.name, bzi.name],
        output: [bdq],
        attribute: [intAttr('axis', 0)],
      });
      inputs.push(bdq);
    } else if (conv.input[2]) inputs.push(conv.input[2]);
    conv.input = inputs;
  }
  m.graph.node = topoSort([...added, ...m.graph.node]);
  const used = new Set(m.graph.node.flatMap((n) => n.input));
  m.graph.initializer = m.graph.initializer.filter((i) => used.has(i.name));
}

/** Orders nodes so each runs after the producers of its inputs (ONNX requires it). */
function topoSort(nodes: OnnxNode[]): OnnxNode[] {
  const producer = new Map<string, OnnxNode>();
  for (const n of nodes) for (const o of n.output) producer.set(o, n);
  const done = new Set<OnnxNode>();
  const out: OnnxNode[] = [];
  const visit = (n: OnnxNode): void => {
    if (done.has(n)) return;
    done.add(n);
    for (const i of n.input) {
      const p = producer.get(i);
      if (p) visit(p);
    }
    out.push(n);
  };
  for (const n of nodes) visit(n);
  return out;
}
