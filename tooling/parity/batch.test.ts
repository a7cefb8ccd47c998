/**
 * The dynamic-batch face models (specs.ts `dynamicBatch`): one run on N inputs gives, item by
 * item, the outputs of N single runs (|batch - single| <= 1e-4 · max(1, |single|)), on the parity
 * fixtures' inputs plus a shuffled copy (so items differ in position from their single runs).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parityCases } from '../convert/parity-inputs';
import { buildSpecs } from '../convert/specs';
import { atBatch, batchItem, InferenceEngine, loadManifest } from '../../src-main/inference';
import { repoRoot } from '../../test/helpers/paths';

const REL_TOL = 1e-4;
const modelsDir = join(repoRoot, 'models');
const manifest = loadManifest(join(modelsDir, 'manifest.json'));
const engine = new InferenceEngine(manifest, { modelsDir, intraOpNumThreads: 1, warmUp: false });
afterAll(() => engine.dispose());

const batched = buildSpecs.filter((s) => s.dynamicBatch);

describe('dynamic-batch models: a batch of N equals N single runs', () => {
  it('the per-face models have a dynamic batch, the whole-image models do not', () => {
    expect(batched.map((s) => s.id).sort()).toEqual(['emotion', 'facemesh', 'faceres', 'gear']);
    for (const spec of manifest.models.values()) {
      const dynamic = batched.some((s) => s.id === spec.id);
      for (const t of [...spec.inputs, ...spec.outputs]) expect(t.shape[0], `${spec.id} ${t.name}`).toBe(dynamic ? -1 : 1);
    }
  });

  for (const spec of batched) {
    it(`${spec.id}: batch outputs match single runs within 1e-4 relative`, async () => {
      const cases = await parityCases(spec);
      // Fixtures, then the same inputs in reverse order: N = 2 × cases (7 or 8 inputs).
      const items = [...cases, ...[...cases].reverse()].map((c) => c.data);
      const len = items[0]!.length;
      const input = manifest.models.get(spec.id)!.inputs[0]!;
      const data = new Float32Array(items.length * len);
      items.forEach((x, i) => data.set(x, i * len));
      const batch = await engine.run(spec.id, { [input.name]: { data, dims: atBatch(input.shape, items.length) } });
      for (const [i, x] of items.entries()) {
        const single = await engine.run(spec.id, { [input.name]: { data: x, dims: atBatch(input.shape, 1) } });
        for (const [name, one] of Object.entries(single)) {
          const all = batch[name]!;
          expect(all.dims[0], `${name} batch`).toBe(items.length);
          expect([...all.dims.slice(1)]).toEqual([...one.dims.slice(1)]);
          const got = batchItem(all.data, one.data.length, i);
          let worst = 0;
          one.data.forEach((b, k) => (worst = Math.max(worst, Math.abs(got[k]! - b) / (REL_TOL * Math.max(1, Math.abs(b))))));
          expect(worst, `item ${i} ${name}: worst element off by ${worst.toFixed(2)}x tolerance`).toBeLessThanOrEqual(1);
        }
      }
    });
  }
});
