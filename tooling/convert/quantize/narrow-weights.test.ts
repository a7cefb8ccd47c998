// Narrow (7-bit) weights on a real model and real images: the nsfw MobileNetV2 calibrated on
// face-free negatives. The search must narrow only non-depthwise filters, write them within
// −63..63, keep the outputs within its budget on images it did not choose on, and the fused
// integer kernels must compute exactly what the graph specifies (on CPUs without VNNI the narrow
// filters run the u8 × s8 kernels that saturate on full-range weights).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { cosine } from '../../../test/helpers/cosine';
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { calibrate } from './calibrate';
import { chooseNarrowWeights, NARROW_WEIGHT_BUDGET } from './narrow-weights';
import { nsfwFeed, nsfwProbabilities, photoFiles } from './nsfw-test-inputs';
import { decodeModel, encodeModel, GraphIndex } from './onnx-model';
import { applyQdq, planQuantisation, WEIGHT_LEVELS } from './qdq';
import { simplify } from './simplify';

const root = join(import.meta.dirname, '../../..');

describe('narrow (7-bit) weights', () => {
  it('narrows the costly filters within the budget, and the fused kernels stay exact', async () => {
    const floatBytes = readFileSync(join(root, 'models', 'nsfw-mobilenet-v2-mid.onnx'));
    const m = decodeModel(floatBytes);
    simplify(m);
    const plan = planQuantisation(m);
    const calib = await Promise.all(photoFiles('test/fixtures/negatives', 8).map(nsfwFeed));
    const ranges = await calibrate(m, plan.activations, calib);
    const choice = await chooseNarrowWeights(m, plan, ranges, calib, floatBytes);

    // Some filters narrow, never a depthwise one, and the search kept its own budget.
    const g = new GraphIndex(m);
    expect(choice.narrow.size).toBeGreaterThan(0);
    expect(choice.macShare).toBeGreaterThan(0.2);
    for (const w of choice.narrow) expect(g.inits.get(w)!.dims[1], w).toBeGreaterThan(1);
    for (const [o, c] of Object.entries(choice.chosen)) expect(c, o).toBeGreaterThanOrEqual(choice.full[o]! - NARROW_WEIGHT_BUDGET);

    applyQdq(m, plan, ranges, choice.narrow);
    const bytes = encodeModel(m);
    // The written filters: narrow ones within −63..63, the others reach ±127.
    const q = new GraphIndex(decodeModel(bytes));
    const convWeights = decodeModel(bytes).graph.node.filter((n) => n.opType === 'DequantizeLinear' && n.name.startsWith('DQW_'));
    let narrowSeen = 0;
    for (const n of convWeights) {
      const w = q.inits.get(n.input[0]!)!;
      const max = new Int8Array(w.rawData.slice().buffer).reduce((a, v) => Math.max(a, Math.abs(v)), 0);
      if (max <= WEIGHT_LEVELS.narrow) narrowSeen++;
      else expect(max).toBe(WEIGHT_LEVELS.full);
    }
    expect(narrowSeen).toBe(choice.narrow.size);

    // On fixture photos the search never saw: fused int8 kernels = the graph computed unfused (in
    // float), and the narrowed graph stays close to the float model.
    const fused = await ort.InferenceSession.create(bytes, {
      ...EXACT_INTEGER_SESSION,
      graphOptimizationLevel: 'all',
      intraOpNumThreads: 1,
    });
    const unfused = await ort.InferenceSession.create(bytes, { graphOptimizationLevel: 'disabled', intraOpNumThreads: 1 });
    const float = await ort.InferenceSession.create(floatBytes, { intraOpNumThreads: 1 });
    for (const file of photoFiles('test/fixtures/images', 8)) {
      const f = await nsfwFeed(file);
      const [a, b, c] = [await nsfwProbabilities(fused, f), await nsfwProbabilities(unfused, f), await nsfwProbabilities(float, f)];
      // Fused kernels requantise in fixed point, unfused ones in float: measured ≥ 0.998 (saturating
      // kernels on full-range weights gave 0.90 on a CPU without VNNI, docs/models.md).
      expect(cosine(a, b), file).toBeGreaterThan(0.995);
      expect(cosine(a, c), file).toBeGreaterThan(0.95);
    }
    await Promise.all([fused.release(), unfused.release(), float.release()]);
  }, 180_000);
});
