/**
 * dlib's ResNet face descriptor (128-d; the network of `@vladmandic/face-api`'s FaceRecognitionNet,
 * MIT; weights converted from dlib's face-recognition model, whose own terms are to be confirmed
 * before shipping) written out as an ONNX graph from the package's weights manifest — face-api ships weights without a graph, so the layers below follow its
 * `src/faceRecognitionNet` code — and checked against face-api's own TF.js run. Measurement only
 * (docs/galleries.md "Other embedders measured"); face-api is not a dependency of the tooling
 * package, so its unpacked folder is an argument:
 *   npm pack @vladmandic/face-api && tar xzf vladmandic-face-api-*.tgz
 *   NODE_PATH=tooling/node_modules npx tsx tooling/experiments/dlib-resnet.ts <package dir> <models dir>
 * <models dir> is a folder from face-embedders.ts (or any copy of models/): `dlib-resnet.onnx` is
 * written there and added to its manifest.
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import { manifestEntry, type ManifestEntry } from '../convert/build';
import { OnnxGraph } from '../convert/onnx-graph';
import { randomInput } from '../convert/parity-inputs';
import { decodeWeights } from '../convert/weights';
import type { WeightSpec } from '../convert/tfjs-source';

const SIDE = 150;
const MEAN_RGB = [122.782, 117.001, 104.298];

const f32 = (values: ArrayLike<number>): Uint8Array => new Uint8Array(Float32Array.from(values).buffer);

/** TF HWIO filters → ONNX OIHW. */
function oihw(values: Float32Array, [h, w, i, o]: number[]): Float32Array {
  const out = new Float32Array(values.length);
  for (let y = 0; y < h!; y++)
    for (let x = 0; x < w!; x++)
      for (let c = 0; c < i!; c++)
        for (let k = 0; k < o!; k++) out[((k * i! + c) * h! + y) * w! + x] = values[((y * w! + x) * i! + c) * o! + k]!;
  return out;
}

function build(weights: Map<string, { shape: number[]; values: Float32Array | Int32Array | Uint8Array }>): OnnxGraph {
  const g = new OnnxGraph();
  const w = (name: string) => {
    const t = weights.get(name);
    if (!t) throw new Error(`missing weight ${name}`);
    return { shape: t.shape, values: t.values as Float32Array };
  };
  const perChannel = (prefix: string, values: Float32Array): string =>
    g.initializer(prefix, 'float', [1, values.length, 1, 1], f32(values));
  g.inputs.push({ name: 'input', dtype: 'float', dims: [1, SIDE, SIDE, 3] });
  let x = g.node('Transpose', ['input'], { perm: [0, 3, 1, 2] })[0]!;
  x = g.node('Sub', [x, perChannel('mean_rgb', Float32Array.from(MEAN_RGB))])[0]!;
  x = g.node('Div', [x, g.initializer('scale', 'float', [], f32([255]))])[0]!;
  let size = SIDE;
  let channels = 3;

  /** conv (+bias) → scale layer (·weights + biases) → optional relu; TF 'same' (stride 1, 3×3) or 'valid'. */
  const conv = (input: string, prefix: string, stride: number, relu: boolean, same: boolean): string => {
    const f = w(`${prefix}/conv/filters`);
    const [kh, kw, , co] = f.shape as [number, number, number, number];
    const pad = same ? (kh - 1) / 2 : 0;
    const filters = g.initializer(`${prefix}_w`, 'float', [co, f.shape[2]!, kh, kw], f32(oihw(f.values, f.shape)));
    const bias = g.initializer(`${prefix}_b`, 'float', [co], f32(w(`${prefix}/conv/bias`).values));
    let out = g.node('Conv', [input, filters, bias], { kernel_shape: [kh, kw], strides: [stride, stride], pads: [pad, pad, pad, pad] })[0]!;
    out = g.node('Mul', [out, perChannel(`${prefix}_sw`, w(`${prefix}/scale/weights`).values)])[0]!;
    out = g.node('Add', [out, perChannel(`${prefix}_sb`, w(`${prefix}/scale/biases`).values)])[0]!;
    return relu ? g.node('Relu', [out])[0]! : out;
  };
  const residual = (input: string, prefix: string): string => {
    const out = conv(conv(input, `${prefix}/conv1`, 1, true, true), `${prefix}/conv2`, 1, false, true);
    return g.node('Relu', [g.node('Add', [out, input])[0]!])[0]!;
  };
  const residualDown = (input: string, prefix: string): string => {
    let out = conv(conv(input, `${prefix}/conv1`, 2, true, false), `${prefix}/conv2`, 1, false, true);
    const outChannels = w(`${prefix}/conv2/conv/filters`).shape[3]!;
    const convSize = Math.floor((size - 3) / 2) + 1;
    const poolSize = Math.floor(size / 2);
    let pooled = g.node('AveragePool', [input], { kernel_shape: [2, 2], strides: [2, 2] })[0]!;
    const zeroPad = (t: string, pads: number[]): string =>
      g.node('Pad', [t, g.initializer('pads', 'int64', [8], new Uint8Array(BigInt64Array.from(pads.map(BigInt)).buffer))])[0]!;
    // face-api appends one zero row and column to the conv branch when the pooled branch is larger.
    if (poolSize !== convSize) out = zeroPad(out, [0, 0, 0, 0, 0, 0, poolSize - convSize, poolSize - convSize]);
    // …and zero channels to the pooled branch when the block widens.
    if (outChannels !== channels) pooled = zeroPad(pooled, [0, 0, 0, 0, 0, outChannels - channels, 0, 0]);
    size = poolSize;
    channels = outChannels;
    return g.node('Relu', [g.node('Add', [pooled, out])[0]!])[0]!;
  };

  x = conv(x, 'conv32_down', 2, true, false);
  size = Math.floor((size - 7) / 2) + 1;
  channels = 32;
  x = g.node('MaxPool', [x], { kernel_shape: [3, 3], strides: [2, 2] })[0]!;
  size = Math.floor((size - 3) / 2) + 1;
  for (const p of ['conv32_1', 'conv32_2', 'conv32_3']) x = residual(x, p);
  x = residualDown(x, 'conv64_down');
  for (const p of ['conv64_1', 'conv64_2', 'conv64_3']) x = residual(x, p);
  x = residualDown(x, 'conv128_down');
  for (const p of ['conv128_1', 'conv128_2']) x = residual(x, p);
  x = residualDown(x, 'conv256_down');
  for (const p of ['conv256_1', 'conv256_2']) x = residual(x, p);
  x = residualDown(x, 'conv256_down_out');
  x = g.node('ReduceMean', [x], { axes: [2, 3], keepdims: 0 })[0]!;
  const fc = w('fc');
  g.node('MatMul', [x, g.initializer('fc', 'float', fc.shape, f32(fc.values))], {}, 1, ['descriptor']);
  g.outputs.push({
    name: 'descriptor',
    dtype: 'float',
    dims: [1, fc.shape[1]!],
    doc: '128-d face descriptor (dlib ResNet); L2-normalize, compare by cosine',
  });
  return g;
}

interface FaceApi {
  tf: { setBackend(n: string): Promise<boolean>; ready(): Promise<void>; tensor4d(d: Float32Array, s: number[]): { dispose(): void } };
  nets: { faceRecognitionNet: { loadFromDisk(dir: string): Promise<void>; computeFaceDescriptor(t: unknown): Promise<Float32Array> } };
}

async function main(): Promise<void> {
  const [pkgArg, outArg] = process.argv.slice(2);
  if (!pkgArg || !outArg) throw new Error('usage: dlib-resnet.ts <face-api package dir> <models dir>');
  const pkg = resolve(pkgArg);
  const out = resolve(outArg);
  const groups = JSON.parse(readFileSync(join(pkg, 'model', 'face_recognition_model-weights_manifest.json'), 'utf8')) as {
    paths: string[];
    weights: WeightSpec[];
  }[];
  const bins = groups.flatMap((gr) => gr.paths.map((p) => readFileSync(join(pkg, 'model', p))));
  const data = Buffer.concat(bins);
  const weights = decodeWeights(
    groups.flatMap((gr) => gr.weights),
    data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
  );
  const bytes = build(weights).serialize({
    docString: 'dlib-resnet: written from @vladmandic/face-api face_recognition_model by tooling/experiments/dlib-resnet.ts',
    props: {
      id: 'dlib-resnet',
      license: 'MIT (@vladmandic/face-api); weights: dlib face recognition ResNet (terms of the original model to be confirmed)',
    },
  });
  writeFileSync(join(out, 'dlib-resnet.onnx'), bytes);

  // Parity with face-api's TF.js run (wasm) on seeded random pixels.
  const api = createRequire(import.meta.url)(join(pkg, 'dist', 'face-api.node-wasm.js')) as FaceApi;
  await api.tf.setBackend('wasm');
  await api.tf.ready();
  await api.nets.faceRecognitionNet.loadFromDisk(join(pkg, 'model'));
  const session = await ort.InferenceSession.create(join(out, 'dlib-resnet.onnx'));
  for (const seed of [1234, 99]) {
    const input = randomInput({ input: { shape: [1, SIDE, SIDE, 3], range: [0, 255] } }, seed);
    const t = api.tf.tensor4d(input, [1, SIDE, SIDE, 3]);
    const ref = await api.nets.faceRecognitionNet.computeFaceDescriptor(t);
    t.dispose();
    const got = (await session.run({ input: new ort.Tensor('float32', input, [1, SIDE, SIDE, 3]) })).descriptor!.data as Float32Array;
    let worst = 0;
    ref.forEach((b, i) => (worst = Math.max(worst, Math.abs(got[i]! - b) / Math.max(1e-3, Math.abs(b)))));
    process.stderr.write(`dlib-resnet seed ${seed}: worst relative |onnx − tfjs| ${worst.toExponential(2)}\n`);
  }
  await session.release();

  const manifestPath = join(out, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: number; models: ManifestEntry[] };
  const entry = manifestEntry(
    {
      id: 'dlib-resnet',
      task: 'face-recognize',
      license: 'MIT (@vladmandic/face-api); weights: dlib face recognition ResNet (terms of the original model to be confirmed)',
      source: { package: '@vladmandic/face-api' },
      input: {
        name: 'input',
        shape: [1, SIDE, SIDE, 3],
        layout: 'NHWC',
        range: [0, 255],
        normalization: 'RGB 0..255 of the upright face crop (the graph subtracts the mean RGB and divides by 255)',
        preprocess: {
          size: [SIDE, SIDE],
          resize: 'window',
          interpolation: 'bilinear',
          channels: 'RGB',
          layout: 'NHWC',
          dtype: 'float32',
          scale: 1,
          offset: 0,
        },
      },
      outputs: [{ tensor: '', name: 'descriptor', doc: '', meaning: '128-d face descriptor; L2-normalize, compare by cosine' }],
    },
    {
      file: 'dlib-resnet.onnx',
      bytes,
      version: 'unpacked',
      sourcePath: 'model/face_recognition_model-weights_manifest.json',
      outputShapes: [[1, 128]],
    },
  );
  manifest.models = manifest.models.filter((m) => m.id !== 'dlib-resnet').concat(entry);
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  process.stderr.write(`dlib-resnet: ${(bytes.byteLength / 1e6).toFixed(2)} MB → ${out}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
