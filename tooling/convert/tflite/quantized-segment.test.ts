import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../fixtures';
import { modelsDir } from './build';
import { convertQuantizedSpec, loadCoral } from './quantized-build';
import { bytesSha256, fixturePixels, quantizedCases } from './quantized-inputs';
import { agreement, asNumbers, comparable, compareValues, PARITY_RULES, storedValues, type QuantizedParityFile } from './quantized-parity';
import { parityDir } from './quantized-reference';
import { quantizedSpecs } from './quantized-specs';
import { Model, TensorType } from './schema';
import { ModelProto } from '../onnx-proto';

const spec = quantizedSpecs.find((s) => s.id === 'deeplabv3-pascal')!;
const pascal = JSON.parse(readFileSync(join(modelsDir, 'labels/pascal-voc.json'), 'utf8')) as string[];
const PERSON = pascal.indexOf('person');
const CAT = pascal.indexOf('cat');
/** Agreement of the argmax map on the seeded random input: noise gives near-tied class scores everywhere (measured 93.2 %). */
const MIN_RANDOM_AGREEMENT = 0.9;
/**
 * The upsampling may not add differences of its own: the share of upsampled scores that differ
 * from TFLite stays within this many points of the share of 33x33 logits that already differ
 * (measured +0.1 to +0.7 points; an integer Resize that truncates, as ORT's does, adds ~38).
 */
const MAX_UPSAMPLING_EXTRA_DIFF = 0.03;
/** The source graph's input size (parity) and the size the app runs the free-spatial graph at. */
const SOURCE = spec.input.shape[1]!;
const RUN = spec.runSize!;
/** IoU of the cat fixture's mask at RUN with its mask at SOURCE. */
const MIN_CAT_IOU = 0.9;

interface Truth {
  file: string;
  width: number;
  height: number;
  truth: { faces?: { left: number; top: number; width: number; height: number }[] };
}
const truth = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as Truth[];

describe('quantized TFLite -> ONNX (deeplabv3-pascal)', () => {
  const a = convertQuantizedSpec(spec);
  const sessions: ort.InferenceSession[] = [];
  afterAll(async () => Promise.all(sessions.map((s) => s.release())));
  const open = async (bytes: Uint8Array) => {
    const s = await ort.InferenceSession.create(bytes, { ...EXACT_INTEGER_SESSION, intraOpNumThreads: 1, interOpNumThreads: 1 });
    sessions.push(s);
    return s;
  };
  const classMap = async (s: ort.InferenceSession, file: string, size = SOURCE) =>
    asNumbers(
      (await s.run({ input: new ort.Tensor('uint8', await fixturePixels(spec, file, size), [1, size, size, 3]) }))['classes']!
        .data as BigInt64Array,
    );

  it('reads the graph: ops, uint8 input, int64 ARG_MAX output', () => {
    const sg = Model.read(loadCoral(spec)).subgraphs()[0]!;
    const out = sg.tensors()[sg.outputs()[0]!]!;
    expect(out.type()).toBe(TensorType.INT64);
    expect(out.quantization()).toBeNull();
    expect(a.converted.ops).toEqual({
      CONV_2D: 38,
      DEPTHWISE_CONV_2D: 17,
      ADD: 10,
      AVERAGE_POOL_2D: 1,
      RESIZE_BILINEAR: 3,
      QUANTIZE: 1,
      CONCATENATION: 1,
      ARG_MAX: 1,
    });
    expect(a.converted.inputQuantization).toEqual({ dtype: 'uint8', scale: 0.0078125, zeroPoint: 128 });
    expect(a.converted.outputShapes).toEqual([[1, 513, 513]]);
    expect(a.converted.outputDtypes).toEqual(['int64']);
  });

  it('is deterministic and is the shipped file', () => {
    expect(Buffer.compare(Buffer.from(a.bytes), Buffer.from(convertQuantizedSpec(spec).bytes))).toBe(0);
    expect(Buffer.compare(Buffer.from(a.bytes), readFileSync(join(modelsDir, 'deeplabv3-pascal.onnx')))).toBe(0);
  });

  it('matches the TFLite interpreter recorded in test/fixtures/parity: class maps, logits, upsampled scores', async () => {
    const stored = JSON.parse(readFileSync(join(parityDir, `${spec.id}.json`), 'utf8')) as QuantizedParityFile;
    const cases = await quantizedCases(spec);
    expect(stored.cases.map((c) => c.name)).toEqual(cases.map((c) => c.name));
    // The test-only variant also outputs the logits (parity tap); its class map is the shipped graph's.
    const s = await open(convertQuantizedSpec(spec, 'qlinear', true).bytes);
    for (const [k, c] of cases.entries()) {
      const want = stored.cases[k]!;
      expect(bytesSha256(c.data), c.name).toBe(want.inputSha256);
      const out = await s.run({ input: new ort.Tensor('uint8', c.data, spec.input.shape) });
      const same = agreement(asNumbers(out['classes']!.data as BigInt64Array), storedValues(want.outputs['classes']!));
      expect(same, c.name).toBeGreaterThanOrEqual(c.name === 'random' ? MIN_RANDOM_AGREEMENT : PARITY_RULES.minClassAgreement);
      const logits = compareValues(asNumbers(out['logits']!.data as Uint8Array), storedValues(want.outputs['logits']!));
      expect(logits.maxSteps, c.name).toBeLessThanOrEqual(PARITY_RULES.maxSteps);
      const sample = want.outputs['upsampled']!;
      const up = compareValues(comparable(asNumbers(out['upsampled']!.data as Uint8Array), sample), storedValues(sample));
      expect(up.maxSteps, c.name).toBeLessThanOrEqual(PARITY_RULES.maxSteps);
      const share = (x: { differing: number }, n: number) => x.differing / n;
      expect(share(up, storedValues(sample).length) - share(logits, 33 * 33 * 21), c.name).toBeLessThanOrEqual(MAX_UPSAMPLING_EXTRA_DIFF);
    }
  });

  it('takes its spatial size at run time: symbolic input dims, the app runs it at runSize (16k + 1)', () => {
    const graph = ModelProto.decode(a.bytes) as unknown as {
      graph: { input: { type: { tensorType: { shape: { dim: { dimParam?: string; dimValue?: unknown }[] } } } }[] };
    };
    expect(graph.graph.input[0]!.type.tensorType.shape.dim.map((d) => d.dimParam || Number(d.dimValue))).toEqual([1, 'height', 'width', 3]);
    expect(RUN).toBeLessThan(SOURCE);
    expect((RUN - 1) % 16).toBe(0);
  });

  for (const size of [SOURCE, RUN])
    it(`segments the subject at ${size}x${size}: the cat fixture is mostly cat, faces lie on person pixels`, async () => {
      const s = await open(a.bytes);
      const cat = await classMap(s, 'cat_chelsea.jpg', size);
      expect(cat.length).toBe(size * size);
      const share = (m: Int32Array, cls: number) => m.filter((v) => v === cls).length / m.length;
      // cat_chelsea is a close-up of a cat filling most of the frame (checked by eye on the mask).
      expect(share(cat, CAT)).toBeGreaterThan(0.8);
      expect(share(cat, PERSON)).toBe(0);
      for (const file of ['grace_hopper.jpg', 'obama_biden_two_people.jpg']) {
        const m = await classMap(s, file, size);
        const t = truth.find((x) => x.file === file)!;
        for (const f of t.truth.faces!) {
          // Face box from image pixels to the stretched size x size input.
          let person = 0;
          let n = 0;
          for (let y = Math.floor((f.top * size) / t.height); y < ((f.top + f.height) * size) / t.height; y++)
            for (let x = Math.floor((f.left * size) / t.width); x < ((f.left + f.width) * size) / t.width; x++, n++)
              if (m[y * size + x] === PERSON) person++;
          expect(person / n, `${file} face at ${f.left},${f.top}`).toBeGreaterThan(0.8);
        }
        expect(share(m, CAT), file).toBe(0);
      }
    });

  it(`the cat's mask at ${RUN} agrees with 513's (IoU on the 513 grid)`, async () => {
    const s = await open(a.bytes);
    const big = await classMap(s, 'cat_chelsea.jpg');
    const small = await classMap(s, 'cat_chelsea.jpg', RUN);
    let inter = 0;
    let union = 0;
    for (let y = 0; y < SOURCE; y++)
      for (let x = 0; x < SOURCE; x++) {
        const a = big[y * SOURCE + x] === CAT;
        const b = small[Math.floor(((y + 0.5) * RUN) / SOURCE) * RUN + Math.floor(((x + 0.5) * RUN) / SOURCE)] === CAT;
        if (a && b) inter++;
        if (a || b) union++;
      }
    // Measured 0.936 at 321 (deeplab-size.ts); a wrong resize size or padding gives far less.
    expect(inter / union).toBeGreaterThan(MIN_CAT_IOU);
  });

  it('ships the 21 PASCAL VOC class names', () => {
    expect(pascal).toHaveLength(21);
    expect(pascal[0]).toBe('background');
    expect(pascal[15]).toBe('person');
    expect(pascal[20]).toBe('tvmonitor');
  });
});
