/**
 * dlib's ResNet face descriptor (`dlib_face_recognition_resnet_model_v1`, 128-d, 150 px) as an
 * ONNX graph written from the weights that `@vladmandic/face-api` ships for its
 * FaceRecognitionNet. face-api ships weights without a graph, so the layers below follow its
 * `src/faceRecognitionNet` code layer by layer; tooling/convert/dlib/dlib.test.ts checks the
 * result against face-api's own TF.js run.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { OnnxGraph } from '../onnx-graph';
import { decodeWeights } from '../weights';
import { packageDir, type WeightSpec } from '../tfjs-source';
import { reshapeConst, transposeConst, type ConstTensor } from '../tensor-data';

/** The npm package that ships the weights, and their manifest inside it. */
export const FACE_API = '@vladmandic/face-api';
export const WEIGHTS_MANIFEST = 'model/face_recognition_model-weights_manifest.json';

/** Input side (px) and the mean RGB the network subtracts before dividing by 255 (face-api's values). */
export const SIDE = 150;
const MEAN_RGB = [122.782, 117.001, 104.298];

type Weights = Map<string, ConstTensor>;

/** The decoded weights of face-api's face-recognition model, from the installed package. */
export function loadWeights(): Weights {
  const dir = join(packageDir(FACE_API), 'model');
  const groups = JSON.parse(readFileSync(join(packageDir(FACE_API), WEIGHTS_MANIFEST), 'utf8')) as {
    paths: string[];
    weights: WeightSpec[];
  }[];
  const data = Buffer.concat(groups.flatMap((gr) => gr.paths.map((p) => readFileSync(join(dir, p)))));
  return decodeWeights(
    groups.flatMap((gr) => gr.weights),
    data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
  );
}

const f32 = (values: ArrayLike<number>): Uint8Array => new Uint8Array(Float32Array.from(values).buffer);

/**
 * Weights at least this large keep face-api's uint8 codes in the file (22.5 → 6.6 MB): a 256-entry
 * table (1 KB) dequantized as TF.js does (code·scale + min in float64, stored float32) is gathered
 * by the codes, so the values are bit-identical to TF.js's, as in the converter (context.ts).
 */
const ENCODED_MIN_ELEMENTS = 1024;

/** The network: NHWC RGB 0..255 `input` [1,150,150,3] → `descriptor` [1,128] (not normalised). */
export function dlibResnetGraph(weights: Weights): OnnxGraph {
  const g = new OnnxGraph();
  const w = (name: string): ConstTensor => {
    const t = weights.get(name);
    if (!t) throw new Error(`missing weight ${name}`);
    return t;
  };
  /** A weight as an initializer: float32, or its uint8 codes and their dequantization table. */
  const stored = (name: string, t: ConstTensor): string => {
    const enc = t.encoding;
    if (enc?.kind === 'affine' && enc.raw instanceof Uint8Array && t.values.length >= ENCODED_MIN_ELEMENTS) {
      const lut = new Float32Array(256);
      for (let i = 0; i < 256; i++) lut[i] = i * enc.scale + enc.min;
      const codes = g.initializer(`${name}_q`, 'uint8', t.shape, new Uint8Array(enc.raw));
      const idx = g.node('Cast', [codes], { to: 6 })[0]!; // int32
      return g.node('Gather', [g.initializer(`${name}_lut`, 'float', [256], f32(lut)), idx], { axis: 0 })[0]!;
    }
    return g.initializer(name, 'float', t.shape, f32(t.values));
  };
  const perChannel = (prefix: string, t: ConstTensor): string => stored(prefix, reshapeConst(t, [1, t.values.length, 1, 1]));
  g.inputs.push({ name: 'input', dtype: 'float', dims: [1, SIDE, SIDE, 3] });
  let x = g.node('Transpose', ['input'], { perm: [0, 3, 1, 2] })[0]!;
  x = g.node('Sub', [x, perChannel('mean_rgb', { dtype: 'float32', shape: [3], values: Float32Array.from(MEAN_RGB) })])[0]!;
  x = g.node('Div', [x, g.initializer('scale', 'float', [], f32([255]))])[0]!;
  let size = SIDE;
  let channels = 3;

  /** conv (+bias) → scale layer (·weights + biases) → optional relu; TF 'same' (stride 1, 3×3) or 'valid'. */
  const conv = (input: string, prefix: string, stride: number, relu: boolean, same: boolean): string => {
    const f = w(`${prefix}/conv/filters`);
    const [kh, kw] = f.shape as [number, number, number, number];
    const pad = same ? (kh - 1) / 2 : 0;
    // TF HWIO filters → ONNX OIHW.
    const filters = stored(`${prefix}_w`, transposeConst(f, [3, 2, 0, 1]));
    const bias = stored(`${prefix}_b`, w(`${prefix}/conv/bias`));
    let out = g.node('Conv', [input, filters, bias], { kernel_shape: [kh, kw], strides: [stride, stride], pads: [pad, pad, pad, pad] })[0]!;
    out = g.node('Mul', [out, perChannel(`${prefix}_sw`, w(`${prefix}/scale/weights`))])[0]!;
    out = g.node('Add', [out, perChannel(`${prefix}_sb`, w(`${prefix}/scale/biases`))])[0]!;
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
  g.node('MatMul', [x, stored('fc', fc)], {}, 1, ['descriptor']);
  g.outputs.push({
    name: 'descriptor',
    dtype: 'float',
    dims: [1, fc.shape[1]!],
    doc: '128-d face descriptor (dlib ResNet); L2-normalize, compare by cosine',
  });
  return g;
}
