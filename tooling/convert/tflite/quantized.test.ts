import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { describe, expect, it } from 'vitest';
import { modelsDir } from './build';
import { ModelProto } from '../onnx-proto';
import { asSignedFilter } from './quantized';
import { convertQuantizedSpec, loadCoral } from './quantized-build';
import { bytesSha256, fixturePixels, quantizedCases } from './quantized-inputs';
import { argmax, asNumbers, compareValues, PARITY_RULES, storedValues, type QuantizedParityFile } from './quantized-parity';
import { parityDir } from './quantized-reference';
import { quantizedSpecs } from './quantized-specs';
import { Model, TensorType } from './schema';

const classifier = quantizedSpecs.find((s) => s.id === 'mobilenet-v2-imagenet')!;
const imagenet = JSON.parse(readFileSync(join(modelsDir, 'labels/imagenet-1k.json'), 'utf8')) as string[][];

/** Op types (domain:op) of an ONNX model file. */
function opTypes(bytes: Uint8Array): Record<string, number> {
  const m = ModelProto.decode(bytes) as unknown as { graph: { node: { opType: string; domain: string }[] } };
  const out: Record<string, number> = {};
  for (const n of m.graph.node)
    out[`${n.domain ? `${n.domain}:` : ''}${n.opType}`] = (out[`${n.domain ? `${n.domain}:` : ''}${n.opType}`] ?? 0) + 1;
  return out;
}

const session = (bytes: Uint8Array, extra: ort.InferenceSession.SessionOptions = {}) =>
  ort.InferenceSession.create(bytes, { ...EXACT_INTEGER_SESSION, intraOpNumThreads: 1, interOpNumThreads: 1, ...extra });

describe('quantized TFLite flatbuffer read (MobileNetV2 uint8)', () => {
  const model = Model.read(loadCoral(classifier));
  const sg = model.subgraphs()[0]!;
  const tensors = sg.tensors();

  it('reads per-tensor uint8 quantization of input, output, weights and int32 biases', () => {
    const input = tensors[sg.inputs()[0]!]!;
    expect(input.type()).toBe(TensorType.UINT8);
    expect(input.shape()).toEqual([1, 224, 224, 3]);
    expect(input.quantization()).toEqual({ scales: [0.0078125], zeroPoints: [128], axis: 0 });
    const output = tensors[sg.outputs()[0]!]!;
    expect(output.shape()).toEqual([1, 1001]);
    expect(output.quantization()).toEqual({ scales: [0.00390625], zeroPoints: [0], axis: 0 });
    const firstConv = sg.operators()[0]!;
    const [, w, b] = firstConv.inputs().map((i) => tensors[i]!);
    expect(w!.type()).toBe(TensorType.UINT8);
    expect(w!.shape()).toEqual([32, 3, 3, 3]);
    expect(w!.quantization()!.zeroPoints).toEqual([122]);
    expect(w!.quantization()!.scales[0]).toBeCloseTo(0.033968925, 8);
    expect(b!.type()).toBe(TensorType.INT32);
    // TFLite's rule: bias scale = input scale x filter scale.
    expect(b!.quantization()!.scales[0]).toBeCloseTo(0.0078125 * w!.quantization()!.scales[0]!, 10);
  });
});

describe('uint8 filters as int8 (ORT u8×s8 kernels)', () => {
  it('keeps every dequantized weight (w − zp) and leaves int8 filters alone', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const zps = [0, 77, 128, 255];
    const s = asSignedFilter(bytes, zps, 'uint8');
    const signed = new Int8Array(s.bytes.buffer);
    for (const [k, zp] of zps.entries()) for (let i = 0; i < 256; i++) expect(signed[i]! - s.zeroPoints[k]!).toBe(bytes[i]! - zp);
    expect(asSignedFilter(bytes, [3], 'int8')).toEqual({ bytes, zeroPoints: [3] });
  });

  it('ships the classifier with int8 filters only', () => {
    const model = ModelProto.decode(readFileSync(join(modelsDir, 'mobilenet-v2-imagenet.onnx'))) as unknown as {
      graph: { node: { opType: string; input: string[] }[]; initializer: { name: string; dataType: number }[] };
    };
    const inits = new Map(model.graph.initializer.map((t) => [t.name, t]));
    const filters = model.graph.node.filter((n) => n.opType === 'QLinearConv').map((n) => inits.get(n.input[3]!)!);
    expect(filters).toHaveLength(53);
    // ONNX TensorProto.DataType: INT8 = 3.
    expect(filters.every((t) => t.dataType === 3)).toBe(true);
  });
});

describe('quantized TFLite -> ONNX (mobilenet-v2-imagenet)', () => {
  const a = convertQuantizedSpec(classifier);

  it('converts every op of the source and keeps uint8 in and out', () => {
    expect(a.converted.ops).toEqual({ CONV_2D: 36, DEPTHWISE_CONV_2D: 17, ADD: 10, AVERAGE_POOL_2D: 1, RESHAPE: 1, SOFTMAX: 1 });
    expect(a.converted.inputQuantization).toEqual({ dtype: 'uint8', scale: 0.0078125, zeroPoint: 128 });
    expect(a.converted.outputQuantization).toEqual([
      { dtype: 'uint8', scale: 0.00390625, zeroPoint: 0 },
      // The pooled features keep the last ReLU6 map's quantization (the pool does not rescale).
      { dtype: 'uint8', scale: 0.023528477177023888, zeroPoint: 0 },
    ]);
    expect(a.converted.outputShapes).toEqual([
      [1, 1001],
      [1, 1, 1, 1280],
    ]);
  });

  it('is deterministic and is the shipped file', () => {
    const again = convertQuantizedSpec(classifier).bytes;
    expect(Buffer.compare(Buffer.from(a.bytes), Buffer.from(again))).toBe(0);
    expect(Buffer.compare(Buffer.from(a.bytes), readFileSync(join(modelsDir, 'mobilenet-v2-imagenet.onnx')))).toBe(0);
  });

  it('emits integer operators, and ONNX Runtime keeps them integer after optimization', async () => {
    const ops = opTypes(a.bytes);
    expect(ops).toMatchObject({ QLinearConv: 53, 'com.microsoft:QLinearAdd': 10, 'com.microsoft:QLinearGlobalAveragePool': 1 });
    expect(ops['Conv']).toBeUndefined();
    const optimized = join(tmpdir(), `picscan-qlinear-${process.pid}.onnx`);
    const s = await session(a.bytes, { optimizedModelFilePath: optimized });
    await s.release();
    const after = opTypes(new Uint8Array(readFileSync(optimized)));
    rmSync(optimized, { force: true });
    const convs = Object.entries(after).filter(([k]) => k.endsWith('Conv'));
    // Every convolution is still a QLinearConv (ORT may move it to its NHWC contrib domain).
    expect(convs.every(([k]) => k.endsWith('QLinearConv'))).toBe(true);
    expect(convs.reduce((n, [, c]) => n + c, 0)).toBe(53);
    expect(Object.keys(after).some((k) => k.endsWith('DequantizeLinear'))).toBe(false);
  });

  it('matches the TFLite interpreter outputs recorded in test/fixtures/parity (within 2 steps, same top-1; features within 2 steps)', async () => {
    const stored = JSON.parse(readFileSync(join(parityDir, `${classifier.id}.json`), 'utf8')) as QuantizedParityFile;
    const cases = await quantizedCases(classifier);
    expect(stored.cases.map((c) => c.name)).toEqual(cases.map((c) => c.name));
    expect(cases.filter((c) => c.name !== 'random').length).toBeGreaterThanOrEqual(3);
    const s = await session(a.bytes);
    for (const [k, c] of cases.entries()) {
      expect(bytesSha256(c.data), c.name).toBe(stored.cases[k]!.inputSha256);
      const out = await s.run({ input: new ort.Tensor('uint8', c.data, classifier.input.shape) });
      const cmp = compareValues(
        asNumbers(out['probabilities']!.data as Uint8Array),
        storedValues(stored.cases[k]!.outputs['probabilities']!),
      );
      expect(cmp.maxSteps, c.name).toBeLessThanOrEqual(PARITY_RULES.maxSteps);
      expect(cmp.top1Equal, c.name).toBe(true);
      const features = compareValues(asNumbers(out['features']!.data as Uint8Array), storedValues(stored.cases[k]!.outputs['features']!));
      expect(features.maxSteps, c.name).toBeLessThanOrEqual(PARITY_RULES.maxSteps);
    }
    await s.release();
  });

  it('names what the fixtures show (top-1 ImageNet class, checked by eye)', async () => {
    const s = await session(a.bytes);
    const top1 = async (file: string) => {
      const out = await s.run({ input: new ort.Tensor('uint8', await fixturePixels(classifier, file), classifier.input.shape) });
      const p = out['probabilities']!.data as Uint8Array;
      const i = argmax(p);
      return { label: imagenet[i]![0], probability: p[i]! / 256 };
    };
    // cat_chelsea: a tabby-like cat; the 5 domestic-cat classes are 282..286.
    expect(await top1('cat_chelsea.jpg')).toMatchObject({ label: 'Egyptian cat' });
    const coffee = await top1('coffee_cup.jpg');
    expect(coffee.label).toBe('espresso');
    expect(coffee.probability).toBeGreaterThan(0.9);
    expect((await top1('rocket_launchpad.jpg')).label).toBe('missile');
    await s.release();
  });

  it('the dequantized float build (speed baseline) computes the same function: same top-1, probabilities within 0.05', async () => {
    const float = await session(convertQuantizedSpec(classifier, 'float').bytes);
    const int = await session(a.bytes);
    for (const file of ['cat_chelsea.jpg', 'coffee_cup.jpg', 'rocket_launchpad.jpg']) {
      const x = new ort.Tensor('uint8', await fixturePixels(classifier, file), classifier.input.shape);
      const p = (await float.run({ input: x }))['probabilities']!.data as Float32Array;
      const q = (await int.run({ input: x }))['probabilities']!.data as Uint8Array;
      expect(argmax(p), file).toBe(argmax(q));
      expect(Math.abs(p[argmax(p)]! - q[argmax(q)]! / 256), file).toBeLessThan(0.05);
    }
    await Promise.all([float.release(), int.release()]);
  });

  it('ships 1 001 ImageNet synonym lists, background first', () => {
    expect(imagenet).toHaveLength(1001);
    expect(imagenet[0]).toEqual(['background']);
    expect(imagenet[1]).toEqual(['tench', 'Tinca tinca']);
    expect(imagenet[1000]).toEqual(['toilet tissue', 'toilet paper', 'bathroom tissue']);
  });
});
