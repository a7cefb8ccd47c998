// The batch norms gear applies after its ReLUs fold into the next convolution (fold-affine-forward.ts):
// the float graph computes the same outputs on real face photos, the folded affines are gone, and
// the fold refuses where it would change the result (a padded convolution; a negative scale
// before a max pool).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { foldAffineIntoNextConv } from './fold-affine-forward';
import { decodeModel, encodeModel, floatInit, GraphIndex, type OnnxModel } from './onnx-model';
import { materialiseWeights } from './simplify';

const root = join(import.meta.dirname, '../../..');
/** gear's float graph with its weights as float32 constants (simplify's first step). */
function gear(): OnnxModel {
  const m = decodeModel(readFileSync(join(root, 'models', 'gear.onnx')));
  materialiseWeights(m);
  return m;
}
let n = 0;
const fresh = (p: string) => `${p}_t${++n}`;
const count = (m: OnnxModel, op: string) => m.graph.node.filter((x) => x.opType === op).length;

/** A people crop stretched to gear's input: RGB 0..1, NHWC. */
async function face(file: string): Promise<ort.Tensor> {
  const data = await sharp(join(root, 'test/fixtures/people', file))
    .removeAlpha()
    .resize(198, 198, { fit: 'fill' })
    .raw()
    .toBuffer();
  return new ort.Tensor(
    'float32',
    Float32Array.from(data, (v) => v / 255),
    [1, 198, 198, 3],
  );
}

describe('folding an affine after an activation into the next convolution', () => {
  it('gear: four batch norms folded, the same outputs on real faces', async () => {
    const before = gear();
    const after = structuredClone(before);
    expect(foldAffineIntoNextConv(after, fresh)).toBe(4);
    // The fifth batch norm feeds the global max and the dense layers, not a convolution: it stays.
    expect([count(before, 'Mul'), count(before, 'Add')]).toEqual([5, 5]);
    expect([count(after, 'Mul'), count(after, 'Add')]).toEqual([1, 1]);
    const [a, b] = await Promise.all([before, after].map((m) => ort.InferenceSession.create(encodeModel(m), { intraOpNumThreads: 1 })));
    // Three people crops spread over the folder (every 60th in name order).
    const files = readdirSync(join(root, 'test/fixtures/people'))
      .filter((f) => f.endsWith('.jpg'))
      .sort()
      .filter((_, i) => i % 60 === 5);
    expect(files.length).toBe(3);
    for (const f of files) {
      const x = await face(f);
      const [p, q] = [await a!.run({ input: x }), await b!.run({ input: x })];
      for (const name of a!.outputNames) {
        const [u, v] = [p[name]!.data as Float32Array, q[name]!.data as Float32Array];
        for (let i = 0; i < u.length; i++) expect(Math.abs(u[i]! - v[i]!), `${f} ${name}[${i}]`).toBeLessThan(1e-4);
      }
    }
    await Promise.all([a!.release(), b!.release()]);
  }, 60_000);

  it('refuses a padded convolution and a negative scale before a max pool', () => {
    const padded = gear();
    for (const conv of padded.graph.node.filter((x) => x.opType === 'Conv')) {
      const pads = conv.attribute.find((a) => a.name === 'pads');
      if (pads) pads.ints = [1, 1, 1, 1];
    }
    expect(foldAffineIntoNextConv(padded, fresh)).toBe(0);

    const negative = gear();
    const g = new GraphIndex(negative);
    // Flip one channel's scale of the first affine: max(s·x) is no longer s·max(x) there.
    const mul = negative.graph.node.find((x) => x.opType === 'Mul')!;
    const scaleName = mul.input.find((i) => g.constFloats(i))!;
    const s = g.constFloats(scaleName)!;
    const flipped = s.values.slice();
    flipped[0] = -Math.abs(flipped[0]!);
    const init = floatInit(fresh('s'), s.dims, flipped);
    negative.graph.initializer.push(init);
    mul.input = mul.input.map((i) => (i === scaleName ? init.name : i));
    expect(foldAffineIntoNextConv(negative, fresh)).toBe(3);
  });
});
