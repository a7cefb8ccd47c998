/**
 * Converter unit tests on small synthetic TF graphs (not the shipped models): each graph stresses
 * layout tracking (NCHW between convs, Transpose composition, axis remapping, dim-dropping
 * reductions, broadcast constants) and is checked against TF.js on a seeded random input.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { convertGraph } from './convert';
import type { TfjsArtifacts, TfNode, WeightSpec } from './tfjs-source';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
const ints = (xs: number[]) => ({ list: { i: xs.map(String) } });

function rand(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 16807) % 2147483647;
    out[i] = (s / 2147483647) * 2 - 1;
  }
  return out;
}

/** A graph from nodes plus named constant tensors (float32 or int32). */
function graph(
  nodes: TfNode[],
  consts: Record<string, { shape: number[]; values: number[] | Float32Array; dtype?: 'int32' }>,
): TfjsArtifacts {
  const specs: WeightSpec[] = [];
  const parts: Uint8Array[] = [];
  const constNodes: TfNode[] = [];
  for (const [name, c] of Object.entries(consts)) {
    const dtype = c.dtype ?? 'float32';
    specs.push({ name, shape: c.shape, dtype });
    const arr = dtype === 'int32' ? Int32Array.from(c.values) : Float32Array.from(c.values);
    parts.push(new Uint8Array(arr.buffer));
    constNodes.push({ name, op: 'Const', attr: { dtype: { type: dtype === 'int32' ? 'DT_INT32' : 'DT_FLOAT' }, value: { tensor: {} } } });
  }
  const total = parts.reduce((n, p) => n + p.byteLength, 0);
  const data = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    data.set(p, off);
    off += p.byteLength;
  }
  return { modelTopology: { node: [...constNodes, ...nodes], versions: { producer: 1000 } }, weightSpecs: specs, weightData: data.buffer };
}

const placeholder = (shape: number[]): TfNode => ({
  name: 'x',
  op: 'Placeholder',
  attr: { dtype: { type: 'DT_FLOAT' }, shape: { shape: { dim: shape.map((d) => ({ size: String(d) })) } } },
});

async function check(art: TfjsArtifacts, shape: number[], outputs: string[]): Promise<void> {
  const { graph: g } = await convertGraph(art, {
    inputName: 'x',
    inputShape: shape,
    outputs: outputs.map((t, i) => ({ tensor: t, name: `y${i}`, doc: '' })),
  });
  const bytes = g.serialize({ docString: '', props: {} });
  const x = rand(
    shape.reduce((a, b) => a * b, 1),
    42,
  );
  const s = await ort.InferenceSession.create(bytes);
  const got = await s.run({ x: new ort.Tensor('float32', x, shape) });
  await tf.setBackend('cpu');
  const model = await loadGraphModel(
    tf.io.fromMemory({ modelTopology: art.modelTopology, weightSpecs: art.weightSpecs, weightData: art.weightData }),
  );
  const res = model.execute({ x: tf.tensor(x, shape) }, outputs);
  const want = Array.isArray(res) ? res : [res];
  outputs.forEach((_, i) => {
    const a = got[`y${i}`]!;
    const b = want[i]!;
    expect([...a.dims]).toEqual(b.shape);
    const bv = b.dataSync();
    (a.data as Float32Array).forEach((v, j) => expect(Math.abs(v - bv[j]!)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(bv[j]!))));
  });
  await s.release();
}

describe('tfjs -> onnx converter on synthetic graphs', () => {
  it('conv (SAME, stride 2, fused BiasAdd+Relu6), depthwise (PReLU), avg pool and broadcast add', async () => {
    const art = graph(
      [
        placeholder([1, 9, 7, 3]),
        {
          name: 'c1',
          op: '_FusedConv2D',
          input: ['x', 'w1', 'b1'],
          attr: {
            strides: ints([1, 2, 2, 1]),
            padding: { s: b64('SAME') },
            dilations: ints([1, 1, 1, 1]),
            fused_ops: { list: { s: [b64('BiasAdd'), b64('Relu6')] } },
            num_args: { i: '1' },
          },
        },
        {
          name: 'd1',
          op: 'FusedDepthwiseConv2dNative',
          input: ['c1', 'dw', 'db', 'alpha'],
          attr: {
            strides: ints([1, 1, 1, 1]),
            padding: { s: b64('SAME') },
            dilations: ints([1, 1, 1, 1]),
            fused_ops: { list: { s: [b64('BiasAdd'), b64('Prelu')] } },
            num_args: { i: '2' },
          },
        },
        {
          name: 'p1',
          op: 'AvgPool',
          input: ['d1'],
          attr: { ksize: ints([1, 3, 3, 1]), strides: ints([1, 2, 2, 1]), padding: { s: b64('SAME') } },
        },
        { name: 'a1', op: 'AddV2', input: ['p1', 'bias3'] },
      ],
      {
        w1: { shape: [3, 3, 3, 4], values: rand(108, 1) },
        b1: { shape: [4], values: rand(4, 2) },
        dw: { shape: [3, 3, 4, 2], values: rand(72, 3) },
        db: { shape: [8], values: rand(8, 4) },
        alpha: { shape: [8], values: rand(8, 5) },
        bias3: { shape: [1, 1, 8], values: rand(8, 6) },
      },
    );
    await check(art, [1, 9, 7, 3], ['a1']);
  });

  it('transpose composition, concat axis remap, keep_dims=false mean, pad, resize and reshape', async () => {
    const art = graph(
      [
        placeholder([1, 6, 6, 2]),
        {
          name: 'c1',
          op: 'Conv2D',
          input: ['x', 'w1'],
          attr: { strides: ints([1, 1, 1, 1]), padding: { s: b64('VALID') }, dilations: ints([1, 1, 1, 1]) },
        },
        { name: 't1', op: 'Transpose', input: ['c1', 'perm'] },
        { name: 'cat', op: 'ConcatV2', input: ['t1', 't1', 'axis1'] },
        { name: 'pad', op: 'Pad', input: ['cat', 'pads'] },
        {
          name: 'rs',
          op: 'ResizeBilinear',
          input: ['pad', 'size'],
          attr: { align_corners: { b: false }, half_pixel_centers: { b: true } },
        },
        { name: 'mean', op: 'Mean', input: ['rs', 'axes'], attr: { keep_dims: { b: false } } },
        { name: 'sm', op: 'Softmax', input: ['mean'] },
        { name: 'flat', op: 'Reshape', input: ['rs', 'shape'] },
      ],
      {
        w1: { shape: [3, 3, 2, 3], values: rand(54, 7) },
        perm: { shape: [4], values: [0, 2, 1, 3], dtype: 'int32' },
        axis1: { shape: [], values: [3], dtype: 'int32' },
        pads: { shape: [4, 2], values: [0, 0, 1, 2, 0, 1, 0, 0], dtype: 'int32' },
        size: { shape: [2], values: [10, 8], dtype: 'int32' },
        axes: { shape: [2], values: [1, 2], dtype: 'int32' },
        shape: { shape: [2], values: [1, -1], dtype: 'int32' },
      },
    );
    await check(art, [1, 6, 6, 2], ['sm', 'flat']);
  });

  it('dynamic batch: symbolic N on input and output, reshapes batch-agnostic; a batch of 3 equals 3 single runs', async () => {
    const art = graph(
      [
        placeholder([1, 5, 5, 2]),
        {
          name: 'c1',
          op: 'Conv2D',
          input: ['x', 'w1'],
          attr: { strides: ints([1, 2, 2, 1]), padding: { s: b64('SAME') }, dilations: ints([1, 1, 1, 1]) },
        },
        { name: 'flat', op: 'Reshape', input: ['c1', 'shape'] },
        { name: 'fc', op: 'MatMul', input: ['flat', 'w2'] },
      ],
      {
        w1: { shape: [3, 3, 2, 4], values: rand(72, 11) },
        shape: { shape: [2], values: [1, 36], dtype: 'int32' },
        w2: { shape: [36, 3], values: rand(108, 12) },
      },
    );
    const { graph: g } = await convertGraph(art, {
      inputName: 'x',
      inputShape: [1, 5, 5, 2],
      outputs: [{ tensor: 'fc', name: 'y', doc: '' }],
      dynamicBatch: true,
    });
    expect(g.inputs[0]!.dims).toEqual(['N', 5, 5, 2]);
    expect(g.outputs[0]!.dims).toEqual(['N', 3]);
    const s = await ort.InferenceSession.create(g.serialize({ docString: '', props: {} }));
    const x = rand(3 * 50, 13);
    const batch = (await s.run({ x: new ort.Tensor('float32', x, [3, 5, 5, 2]) }))['y']!;
    expect([...batch.dims]).toEqual([3, 3]);
    for (let i = 0; i < 3; i++) {
      const one = (await s.run({ x: new ort.Tensor('float32', x.slice(i * 50, (i + 1) * 50), [1, 5, 5, 2]) }))['y']!;
      (one.data as Float32Array).forEach((v, j) => expect((batch.data as Float32Array)[i * 3 + j]).toBeCloseTo(v, 5));
    }
    await s.release();
  });

  it('dynamic batch: an op that moves the batch axis fails the conversion, naming the node', async () => {
    const art = graph(
      [placeholder([1, 2, 3, 4]), { name: 't1', op: 'Transpose', input: ['x', 'perm'] }, { name: 'r', op: 'Relu', input: ['t1'] }],
      { perm: { shape: [4], values: [1, 0, 2, 3], dtype: 'int32' } },
    );
    const opts = { inputName: 'x', inputShape: [1, 2, 3, 4], outputs: [{ tensor: 'r', name: 'y', doc: '' }] };
    await expect(convertGraph(art, opts)).resolves.toBeDefined();
    await expect(convertGraph(art, { ...opts, dynamicBatch: true })).rejects.toThrow(/t1: .*batch/);
  });
});
