/**
 * Every shipped model vs its TF.js source (reference outputs from `npm run models:reference`,
 * wasm backend) on real fixture images and one random input:
 * |onnx - tfjs| <= 1e-4 * max(1, |tfjs|) elementwise; detection scores compared as sets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parityCases, sha256 } from '../convert/parity-inputs';
import { aboveIndices, type ParityFile } from '../convert/parity-format';
import { buildSpecs } from '../convert/specs';
import { quantizedSpecs } from '../convert/tflite/quantized-specs';
import { DLIB_DESCRIPTOR_ID } from '../convert/dlib/build';
import { floatManifestJson } from '../convert/quantize/float-source';
import { InferenceEngine, parseManifest } from '../../src-main/inference';
import { repoRoot } from '../../test/helpers/paths';

const REL_TOL = 1e-4;
const modelsDir = join(repoRoot, 'models');
// The converter's float files: the models shipped as int8 are compared with TF.js through the
// float file they were quantised from (their int8 parity: tooling/convert/quantize/int8-parity.test.ts).
const manifest = parseManifest(floatManifestJson(JSON.parse(readFileSync(join(modelsDir, 'manifest.json'), 'utf8'))));
const engine = new InferenceEngine(manifest, { modelsDir, intraOpNumThreads: 1, warmUp: false });
afterAll(() => engine.dispose());

function worst(actual: Float32Array, stride: number, expected: number[]): { index: number; excess: number } {
  let w = { index: -1, excess: 0 };
  expected.forEach((b, k) => {
    const a = actual[k * stride]!;
    const excess = Math.abs(a - b) / (REL_TOL * Math.max(1, Math.abs(b)));
    if (!(excess <= w.excess) || Number.isNaN(a)) w = { index: k * stride, excess: Number.isNaN(a) ? Infinity : excess };
  });
  return w;
}

describe('ONNX models match their TF.js sources', () => {
  it('ships a reference for every model in the manifest', () => {
    // The quantized TFLite models have their own parity test (tooling/convert/tflite/quantized.test.ts),
    // as has dlib's face descriptor, written from weights alone (tooling/convert/dlib/dlib.test.ts).
    const shipped = [...manifest.models.keys()].filter((id) => !quantizedSpecs.some((s) => s.id === id) && id !== DLIB_DESCRIPTOR_ID);
    expect(buildSpecs.map((s) => s.id).sort()).toEqual(shipped.sort());
  });

  for (const spec of buildSpecs) {
    it(`${spec.id}: outputs within 1e-4 relative of TF.js on fixtures and random input`, async () => {
      const ref = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/parity', `${spec.id}.json`), 'utf8')) as ParityFile;
      const cases = await parityCases(spec);
      expect(cases.map((c) => c.name)).toEqual(ref.cases.map((c) => c.name));
      for (const [i, c] of cases.entries()) {
        const stored = ref.cases[i]!;
        // Same bytes in as when the reference was made (sharp decode/resize is deterministic).
        expect(sha256(c.data), `${c.name} input`).toBe(stored.inputSha256);
        const out = await engine.run(spec.id, { [spec.input.name]: { data: c.data, dims: spec.input.shape } });
        for (const [name, exp] of Object.entries(stored.outputs)) {
          const got = out[name];
          expect(got, `${c.name} ${name}`).toBeDefined();
          expect([...got!.dims], `${c.name} ${name} dims`).toEqual(exp.dims);
          const w = worst(got!.data, exp.stride, exp.values);
          expect(w.excess, `${c.name} ${name}[${w.index}] off by ${w.excess.toFixed(2)}x tolerance`).toBeLessThanOrEqual(1);
          if (exp.above) {
            const det = exp.above;
            const mine = new Set(aboveIndices(got!.data, det));
            const theirs = new Set(det.indices);
            const act = (v: number): number => (det.activation === 'sigmoid' ? 1 / (1 + Math.exp(-v)) : v);
            // A set difference is only allowed for scores within tolerance of the threshold.
            const flips = [...mine].filter((j) => !theirs.has(j)).concat([...theirs].filter((j) => !mine.has(j)));
            const real = flips.filter((j) => Math.abs(act(got!.data[j]!) - det.threshold) > REL_TOL);
            expect(real, `${c.name} ${name} detections differ`).toEqual([]);
          }
        }
      }
    });
  }
});
