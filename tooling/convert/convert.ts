/**
 * TF.js graph model -> ONNX (opset 17). Walks the TF nodes in topological order; folded
 * constants stay symbolic until a runtime op needs them; runtime tensors carry a layout perm.
 */
import { Ctx, type Value } from './context';
import { identity } from './layout';
import { isBinary, convertBinary } from './ops/binary';
import { convertConv } from './ops/conv';
import { convertMatMul } from './ops/matmul';
import { convertPool } from './ops/pool';
import { convertReduce, isReduce } from './ops/reduce';
import {
  convertCast,
  convertConcat,
  convertDepthToSpace,
  convertPad,
  convertReshape,
  convertResize,
  convertSoftmax,
  convertSplit,
  convertTranspose,
} from './ops/shape';
import { convertUnary, isUnary } from './ops/activation';
import type { ConstTensor } from './tensor-data';
import type { TfNode, TfjsArtifacts } from './tfjs-source';
import { constantNodes, tensorKey, traceGraph } from './trace';
import { decodeWeights } from './weights';

export interface OutputSpec {
  /** TF tensor ("node" or "node:1"). */
  tensor: string;
  /** ONNX output name. */
  name: string;
  doc: string;
}

export interface ConvertOptions {
  /** ONNX input name. */
  inputName: string;
  /** Static TF input shape at batch 1 (what the graph is traced with). */
  inputShape: number[];
  /**
   * Emit a symbolic batch dim 'N' on the input and outputs (TF axis 0) and batch-agnostic
   * reshapes, so one run takes N inputs; conversion fails on ops that would fix the batch.
   */
  dynamicBatch?: boolean;
  outputs: OutputSpec[];
}

export interface Converted {
  graph: Ctx['g'];
  outputShapes: number[][];
}

function topoOrder(nodes: TfNode[]): TfNode[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const seen = new Set<string>();
  const order: TfNode[] = [];
  const visit = (n: TfNode): void => {
    if (seen.has(n.name)) return;
    seen.add(n.name);
    for (const i of n.input ?? []) {
      const dep = byName.get(i.replace(/^\^/, '').replace(/:\d+$/, ''));
      if (dep) visit(dep);
    }
    order.push(n);
  };
  for (const n of nodes) visit(n);
  return order;
}

/** The TF nodes the requested outputs depend on (graphs are cut before NMS/TopK). */
function needed(nodes: TfNode[], outputs: string[]): Set<string> {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const live = new Set<string>();
  const stack = outputs.map((o) => o.replace(/:\d+$/, ''));
  while (stack.length) {
    const name = stack.pop()!;
    if (live.has(name)) continue;
    live.add(name);
    for (const i of byName.get(name)?.input ?? []) if (!i.startsWith('^')) stack.push(i.replace(/:\d+$/, ''));
  }
  return live;
}

function sameValues(a: ConstTensor, b: ConstTensor): boolean {
  if (a.values.length !== b.values.length) return false;
  for (let i = 0; i < a.values.length; i++) if (!Object.is(a.values[i], b.values[i]) && a.values[i] !== b.values[i]) return false;
  return true;
}

function convertNode(ctx: Ctx, node: TfNode, inputs: Value[], outKeys: string[]): Value[] {
  const out0 = ctx.shapeOf(outKeys[0]!);
  const op = node.op;
  if (op === 'Identity' || op === 'StopGradient' || op === 'NoOp') return [inputs[0]!];
  if (op === 'Conv2D' || op === '_FusedConv2D' || op === 'DepthwiseConv2dNative' || op === 'FusedDepthwiseConv2dNative')
    return [convertConv(ctx, node, inputs)];
  if (op === 'MaxPool' || op === 'AvgPool') return [convertPool(ctx, node, inputs[0]!)];
  if (op === 'MatMul' || op === '_FusedMatMul') return [convertMatMul(ctx, node, inputs)];
  if (op === 'Prelu') return [convertBinaryPrelu(ctx, inputs[0]!, inputs[1]!, out0)];
  if (isUnary(op)) return [convertUnary(ctx, node, inputs[0]!)];
  if (isBinary(op)) return [convertBinary(ctx, node, inputs[0]!, inputs[1]!, out0)];
  if (isReduce(op)) return [convertReduce(ctx, node, inputs[0]!, inputs[1]!)];
  if (op === 'Reshape' || op === 'Squeeze' || op === 'ExpandDims') return [convertReshape(ctx, node, inputs[0]!)];
  if (op === 'Transpose') return [convertTranspose(ctx, node, inputs[0]!, inputs[1]!, out0)];
  if (op === 'Pad' || op === 'PadV2') return [convertPad(ctx, node, inputs[0]!, inputs[1]!, inputs[2])];
  if (op === 'ConcatV2') return [convertConcat(ctx, node, inputs)];
  if (op === 'SplitV' || op === 'Split') return convertSplit(ctx, node, inputs, outKeys);
  if (op === 'Softmax') return [convertSoftmax(ctx, node, inputs[0]!)];
  if (op === 'DepthToSpace') return [convertDepthToSpace(ctx, node, inputs[0]!)];
  if (op === 'ResizeBilinear' || op === 'ResizeNearestNeighbor') return [convertResize(ctx, node, inputs[0]!)];
  if (op === 'Cast') return [convertCast(ctx, node, inputs[0]!)];
  throw new Error(`${node.name}: unsupported op ${op}`);
}

function convertBinaryPrelu(ctx: Ctx, x: Value, alpha: Value, outShape: number[]): Value {
  const slope = alpha.const ? ctx.broadcastConst(alpha.const, x.shape.length, x.perm) : ctx.as(alpha, x.perm);
  return ctx.runtime(ctx.g.node('PRelu', [x.name, slope])[0]!, x.perm, outShape);
}

export async function convertGraph(art: TfjsArtifacts, opts: ConvertOptions): Promise<Converted> {
  const traced = await traceGraph(art, opts.inputShape);
  const weights = decodeWeights(art.weightSpecs, art.weightData);
  const nodes = art.modelTopology.node;
  const live = needed(
    nodes,
    opts.outputs.map((o) => o.tensor),
  );
  const consts = constantNodes(nodes);
  const ctx = new Ctx(traced, opts.dynamicBatch === true);
  const batched = (shape: number[]): (number | string)[] => (opts.dynamicBatch ? ['N', ...shape.slice(1)] : shape);
  // Which output indices are consumed, per node.
  const used = new Map<string, Set<number>>();
  for (const n of nodes)
    for (const i of n.input ?? []) {
      if (i.startsWith('^')) continue;
      const [name, idx] = tensorKey(i).split(':') as [string, string];
      if (!used.has(name)) used.set(name, new Set([0]));
      used.get(name)!.add(Number(idx));
    }

  for (const node of topoOrder(nodes)) {
    if (!live.has(node.name)) continue;
    const key = `${node.name}:0`;
    if (node.op === 'Placeholder') {
      ctx.g.inputs.push({ name: opts.inputName, dtype: 'float', dims: batched(opts.inputShape) });
      ctx.set(key, { name: opts.inputName, perm: identity(opts.inputShape.length), shape: opts.inputShape, dtype: 'float32' });
      continue;
    }
    if (node.op === 'Const') {
      const w = weights.get(node.name);
      if (!w) throw new Error(`missing weight ${node.name}`);
      const t = traced.get(key)?.value;
      // Our dequantization must match TF.js bit for bit.
      if (t && !sameValues(w, t)) throw new Error(`dequantized weight ${node.name} differs from TF.js`);
      ctx.set(key, { name: '', perm: identity(w.shape.length), shape: w.shape, dtype: w.dtype, const: w });
      continue;
    }
    const idxs = [...(used.get(node.name) ?? new Set([0]))].sort((a, b) => a - b);
    const outKeys = idxs.map((i) => `${node.name}:${i}`);
    if (consts.has(node.name)) {
      for (const k of outKeys) {
        const t = traced.get(k);
        if (!t?.value) throw new Error(`no folded value for ${k}`);
        ctx.set(k, { name: '', perm: identity(t.shape.length), shape: t.shape, dtype: t.value.dtype, const: t.value });
      }
      continue;
    }
    const inputs = (node.input ?? []).filter((i) => !i.startsWith('^')).map((i) => ctx.get(tensorKey(i)));
    const outs = convertNode(ctx, node, inputs, outKeys.length ? outKeys : [key]);
    outKeys.forEach((k, i) => {
      const v = outs[Number(k.split(':')[1])] ?? outs[i];
      if (v) ctx.set(k, v);
    });
  }

  const outputShapes: number[][] = [];
  for (const o of opts.outputs) {
    const v = ctx.get(tensorKey(o.tensor));
    const src = v.const ? ctx.constant(v.const) : ctx.tf(v);
    ctx.g.node('Identity', [src], {}, 1, [o.name]);
    const dtype = v.dtype === 'float32' ? 'float' : v.dtype;
    if (opts.dynamicBatch && (v.const || v.shape[0] !== 1)) throw new Error(`output ${o.name}: no batch axis to make dynamic`);
    ctx.g.outputs.push({ name: o.name, dtype, dims: batched(v.shape), doc: o.doc });
    outputShapes.push(v.shape);
  }
  ctx.g.prune();
  return { graph: ctx.g, outputShapes };
}
