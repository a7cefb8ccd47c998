// Static QDQ quantisation on a real model and real images: the nsfw MobileNetV2 (the adult,
// drawing and place-descriptor backbone), calibrated on face-free negatives and compared with the
// float model on the fixture photos. The int8 graph must agree with the float one and must run as
// int8 kernels (onnxruntime fuses the QDQ groups into QLinearConv), not as dequantised float.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { describe, expect, it } from 'vitest';
import { calibrate } from './calibrate';
import { nsfwFeed, nsfwProbabilities, photoFiles } from './nsfw-test-inputs';
import { decodeModel, encodeModel } from './onnx-model';
import { applyQdq, planQuantisation } from './qdq';
import { simplify } from './simplify';

const root = join(import.meta.dirname, '../../..');

describe('static QDQ quantisation', () => {
  it('quantises the nsfw MobileNetV2 to int8 kernels that agree with the float model on real photos', async () => {
    const m = decodeModel(readFileSync(join(root, 'models', 'nsfw-mobilenet-v2-mid.onnx')));
    simplify(m);
    const floatBytes = encodeModel(m);
    const plan = planQuantisation(m);
    expect(plan.convs.length).toBeGreaterThanOrEqual(50);
    const calib = await Promise.all(photoFiles('test/fixtures/negatives', 12).map(nsfwFeed));
    applyQdq(m, plan, await calibrate(m, plan.activations, calib));
    const qBytes = encodeModel(m);
    expect(qBytes.length).toBeLessThan(floatBytes.length / 3);

    const optimized = join(mkdtempSync(join(tmpdir(), 'qdq-')), 'opt.onnx');
    const qs = await ort.InferenceSession.create(qBytes, {
      ...EXACT_INTEGER_SESSION,
      graphOptimizationLevel: 'all',
      optimizedModelFilePath: optimized,
    });
    const fused = decodeModel(readFileSync(optimized)).graph.node.filter((n) => n.opType === 'QLinearConv').length;
    expect(fused).toBe(plan.convs.length);

    const fs = await ort.InferenceSession.create(floatBytes);
    for (const file of photoFiles('test/fixtures/images', 10)) {
      const f = await nsfwFeed(file);
      const [a, b] = [await nsfwProbabilities(fs, f), await nsfwProbabilities(qs, f)];
      const argmax = (p: Float32Array) => p.indexOf(Math.max(...p));
      expect(argmax(b), file).toBe(argmax(a));
      for (let k = 0; k < a.length; k++) expect(Math.abs(a[k]! - b[k]!), file).toBeLessThan(0.1);
    }
  }, 120_000);
});
