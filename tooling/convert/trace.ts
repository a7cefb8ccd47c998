/**
 * Runs the TF.js graph once (cpu backend, batch 1, zero input) to learn every tensor's static
 * shape and the value of every input-independent tensor (shape arithmetic, folded constants).
 * The converter fixes batch = 1, so everything downstream of Shape is a constant.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import type { ConstTensor } from './tensor-data';
import type { TfjsArtifacts, TfNode } from './tfjs-source';

export interface TracedTensor {
  shape: number[];
  dtype: string;
  /** Present when the tensor does not depend on the graph input's values. */
  value?: ConstTensor;
}

/** "name" -> "name:0"; "name:1" stays. Control inputs ("^x") are dropped by callers. */
export function tensorKey(input: string): string {
  return /:\d+$/.test(input) ? input : `${input}:0`;
}

/** Nodes whose outputs do not depend on the input's values (Shape cuts the dependency). */
export function constantNodes(nodes: TfNode[]): Set<string> {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const memo = new Map<string, boolean>();
  const isConst = (name: string): boolean => {
    const cached = memo.get(name);
    if (cached !== undefined) return cached;
    const n = byName.get(name);
    if (!n) throw new Error(`unknown node ${name}`);
    let r: boolean;
    if (n.op === 'Placeholder') r = false;
    else if (n.op === 'Const' || n.op === 'Shape') r = true;
    else r = (n.input ?? []).filter((i) => !i.startsWith('^')).every((i) => isConst(i.replace(/:\d+$/, '')));
    memo.set(name, r);
    return r;
  };
  const out = new Set<string>();
  for (const n of nodes) if (isConst(n.name)) out.add(n.name);
  return out;
}

function toConst(t: tf.Tensor, data: tf.TypedArray): ConstTensor {
  const dtype = t.dtype === 'int32' ? 'int32' : t.dtype === 'bool' ? 'bool' : 'float32';
  const values =
    dtype === 'int32'
      ? Int32Array.from(data as Int32Array)
      : dtype === 'bool'
        ? Uint8Array.from(data as Uint8Array)
        : Float32Array.from(data as Float32Array);
  return { dtype, shape: t.shape.slice(), values };
}

export async function traceGraph(art: TfjsArtifacts, inputShape: number[]): Promise<Map<string, TracedTensor>> {
  tf.enableProdMode(); // no console banner; no debug checks
  await tf.setBackend('cpu');
  const model = await loadGraphModel(
    tf.io.fromMemory({ modelTopology: art.modelTopology, weightSpecs: art.weightSpecs, weightData: art.weightData }),
  );
  const nodes = art.modelTopology.node;
  const consts = constantNodes(nodes);
  // Which output indices each node has in use.
  const keys = new Set<string>();
  for (const n of nodes) {
    if (n.op !== 'Const' && n.op !== 'Placeholder') keys.add(`${n.name}:0`);
    for (const i of n.input ?? []) if (!i.startsWith('^')) keys.add(tensorKey(i));
  }
  const placeholder = nodes.find((n) => n.op === 'Placeholder')!;
  const request = [...keys].filter((k) => k.split(':')[0] !== placeholder.name);
  const input = tf.zeros(inputShape);
  const outs = model.execute(
    { [placeholder.name]: input },
    request.map((k) => (k.endsWith(':0') ? k.slice(0, -2) : k)),
  ) as tf.Tensor[];
  const result = new Map<string, TracedTensor>();
  result.set(`${placeholder.name}:0`, { shape: inputShape, dtype: 'float32' });
  for (let i = 0; i < request.length; i++) {
    const t = outs[i]!;
    const key = request[i]!;
    const traced: TracedTensor = { shape: t.shape.slice(), dtype: t.dtype };
    if (consts.has(key.split(':')[0]!)) traced.value = toConst(t, t.dataSync());
    result.set(key, traced);
  }
  tf.dispose(outs);
  input.dispose();
  model.dispose();
  return result;
}
