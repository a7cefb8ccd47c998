// The quantiser pieces measured on CenterNet (docs/models.md "CenterNet int8"; not shipped):
// hard-swish as one op and spatial ReduceMean as GlobalAveragePool compute what the converted
// graph computes, the wide plan quantises CenterNet's decoder ops, and percentile ranges clip
// outliers that min/max keeps.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OnnxType } from '../onnx-proto';
import { calibratePercentiles, type Feeds } from './calibrate';
import { decodeModel, encodeModel, floatInit, type OnnxModel } from './onnx-model';
import { planWide, squeezeExciteConvs } from './plan-wide';
import { hardSwishAsOne, reduceMeanAsGlobalPool, simplify } from './simplify';

const root = join(import.meta.dirname, '../../..');
const centernet = () => decodeModel(readFileSync(join(root, 'models', 'centernet.onnx')));

/** A calibration-side photo stretched to h×w, RGB 0..255 NHWC (CenterNet's input values). */
async function photo(file: string, h: number, w: number): Promise<Feeds> {
  const data = await sharp(join(root, file)).removeAlpha().resize(w, h, { fit: 'fill' }).raw().toBuffer();
  return { input: { dtype: 'float32', dims: [1, h, w, 3], data: Float32Array.from(data) } };
}
const run = async (bytes: Uint8Array, f: Feeds) => {
  const s = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 2 });
  const out = await s.run({ input: new ort.Tensor('float32', f['input']!.data as Float32Array, f['input']!.dims) });
  await s.release();
  return out;
};

describe('CenterNet graph rewrites for int8', () => {
  it('hard-swish as one op and ReduceMean as GlobalAveragePool keep the outputs', async () => {
    const before = centernet();
    simplify(before);
    const after = structuredClone(before);
    expect(hardSwishAsOne(after)).toBe(20);
    expect(reduceMeanAsGlobalPool(after)).toBe(9);
    const ops = after.graph.node.map((n) => n.opType);
    expect(ops.filter((o) => o === 'HardSwish').length).toBe(20);
    expect(ops).not.toContain('ReduceMean');
    // Left: the squeeze-excite hard-sigmoid gates (Clip, then · 1/6) and the decoder's ReLUs.
    expect(ops.filter((o) => o === 'Clip').length).toBe(8);

    const f = await photo('test/fixtures/negatives/animal_dog.jpg', 384, 512);
    const [a, b] = [await run(encodeModel(before), f), await run(encodeModel(after), f)];
    // HardSwish's 1/6 is exact; the converted graph's is float16 (0.16663): outputs move a little
    // (measured: heatmap 1.6e-3, box offsets 1.5 px of the 512 px frame).
    for (const [name, tolerance] of [
      ['heatmap', 3e-3],
      ['box_offsets', 2],
    ] as const) {
      const [x, y] = [a[name]!.data as Float32Array, b[name]!.data as Float32Array];
      let worst = 0;
      for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(x[i]! - y[i]!));
      console.log(`${name}: largest change ${worst.toExponential(2)}`);
      expect(worst, name).toBeLessThan(tolerance);
    }
  }, 60_000);

  it('the wide plan quantises the decoder (Concat, Resize, GlobalAveragePool, gating Mul) and leaves chosen convolutions float', () => {
    const m = centernet();
    simplify(m);
    hardSwishAsOne(m);
    reduceMeanAsGlobalPool(m);
    const se = squeezeExciteConvs(m);
    expect(se.size).toBe(18); // two 1×1 convolutions in each of the 9 squeeze-excite blocks
    const all = planWide(m);
    const acts = new Set(all.activations);
    const nodes = (op: string) => m.graph.node.filter((n) => n.opType === op);
    for (const op of ['Concat', 'GlobalAveragePool', 'Resize']) {
      expect(nodes(op).length, op).toBeGreaterThanOrEqual(3);
      for (const n of nodes(op)) {
        for (const t of n.input.filter((i) => i && !m.graph.initializer.some((w) => w.name === i)))
          expect(acts.has(t), `${op} in ${t}`).toBe(true);
        // A Concat's output is quantised after the ReLU that follows it.
        const relu = op === 'Concat' ? m.graph.node.find((r) => r.opType === 'Relu' && r.input[0] === n.output[0]) : undefined;
        expect(acts.has((relu ?? n).output[0]!), `${op} out`).toBe(true);
      }
    }
    // The squeeze-excite gates: Mul of two activations, both sides quantised (QLinearMul).
    const gates = nodes('Mul').filter((n) => n.input.every((i) => m.graph.node.some((p) => p.output.includes(i))));
    expect(gates.length).toBeGreaterThanOrEqual(9);
    for (const g of gates)
      expect(
        g.input.every((i) => acts.has(i)),
        g.name,
      ).toBe(true);
    expect(all.tied.length).toBe(3);
    expect(all.convs.length).toBe(89); // every convolution (the two heads' outputs stay float: they reach the outputs through Sigmoid/Transpose)
    const partial = planWide(m, { floatConv: (n) => se.has(n) });
    expect(partial.convs.length).toBe(89 - 18);
    expect(partial.convs.some((c) => se.has(c))).toBe(false);
  });
});

describe('percentile ranges', () => {
  /** y = x + 0, x of shape [1, n]: calibration sees exactly the fed values. */
  function identity(n: number): OnnxModel {
    const t = (name: string) => ({
      name,
      type: { tensorType: { elemType: OnnxType.float, shape: { dim: [{ dimValue: 1 }, { dimValue: n }] } } },
    });
    return {
      irVersion: 8,
      producerName: 'test',
      producerVersion: '',
      docString: '',
      opsetImport: [{ domain: '', version: 17 }],
      metadataProps: [],
      graph: {
        name: 'identity',
        node: [{ name: 'add', opType: 'Add', domain: '', input: ['x', 'zero'], output: ['y'], attribute: [] }],
        initializer: [floatInit('zero', [], new Float32Array([0]))],
        input: [t('x')],
        output: [t('y')],
      },
    };
  }

  it('clip the rarest values at each end and keep zero in the range', async () => {
    const n = 1000;
    const values = Float32Array.from({ length: n }, (_, i) => 1 + i); // 1..1000
    values[0] = -5000; // one outlier each side
    values[1] = 1e5;
    const feeds: Feeds[] = [{ x: { dtype: 'float32', dims: [1, n], data: values } }];
    const { minmax, byPercentile } = await calibratePercentiles(identity(n), ['y'], feeds, [99.5, 99.99]);
    expect(minmax.get('y')).toEqual({ min: -5000, max: 1e5 });
    // 0.5 % of 1000 values = 5: the outliers go, the bulk (3..1000) stays, to within one bin (105000 / 4096).
    const r = byPercentile.get(99.5)!.get('y')!;
    expect(r.min).toBeLessThanOrEqual(0);
    expect(r.min).toBeGreaterThan(-26);
    expect(r.max).toBeGreaterThanOrEqual(1000 - 5 * 26);
    expect(r.max).toBeLessThan(1000 + 26);
    // 0.01 % of 1000 values is less than one value: nothing is clipped.
    expect(byPercentile.get(99.99)!.get('y')).toEqual({ min: -5000, max: expect.closeTo(1e5, 3) as unknown as number });
  });
});
