/**
 * The int8 models run exactly on this CPU: through the app's session options, onnxruntime's fused
 * integer kernels (QLinearConv) give what the quantised QDQ graph specifies, which the same graph
 * run unfused (graph optimisation off: each DequantizeLinear → float op → QuantizeLinear step on
 * its own) computes in float. On x86 CPUs without VNNI the default u8 × s8 kernels saturate and
 * drift far from it unless EXACT_INTEGER_KERNELS is set (measured here on an AVX2 machine, without
 * it: gear age cosine 0.37, faceres descriptor 0.94, NSFW probabilities 0.90; with it ≥ 0.996); on
 * VNNI CPUs both agree anyway. The TFLite integer graphs (classifier, DeepLab) hold explicit
 * QLinear operators that no optimisation level unfuses: the models suite checks them against the
 * TFLite interpreter's recorded outputs (tooling/convert/tflite/quantized*.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  decodeImage,
  imageFeeds,
  loadManifest,
  openSession,
  windowFeeds,
  type ModelSpec,
  type RgbImage,
  type Session,
  type TensorMap,
} from '../../../src-main/inference';
import { fixture, repoRoot } from '../../helpers/paths';
import { cosine } from '../../helpers/cosine';

const modelsDir = join(repoRoot, 'models');
const manifest = loadManifest(join(modelsDir, 'manifest.json'));
const sessions: Session[] = [];
afterAll(async () => Promise.all(sessions.map((s) => s.dispose())));

async function open(spec: ModelSpec, fused: boolean): Promise<Session> {
  const bytes = new Uint8Array(readFileSync(join(modelsDir, spec.file)));
  const s = await openSession(bytes, { modelId: spec.id, inputs: spec.inputs }, { intraOpNumThreads: 1, graphOptimization: fused });
  sessions.push(s);
  return s;
}

/** A face-sized window at the centre of a portrait (the window models see face crops). */
const centreWindow = (img: RgbImage) => ({
  cx: img.width / 2,
  cy: img.height * 0.4,
  size: Math.min(img.width, img.height) * 0.6,
  angleRad: 0,
});

const PORTRAITS = ['tom_cruise.jpg', 'grace_hopper.jpg', 'obama_portrait.jpg'];
/**
 * Fused vs unfused: the same integers up to the float rounding between the unfused steps (≥ 0.996
 * measured); a saturated sum moves at least one output of each model far below (≤ 0.94).
 */
const MIN_COSINE = 0.995;

describe('integer kernels', () => {
  const ids = [...manifest.models.values()].filter((m) => m.precision === 'int8').map((m) => m.id);

  it('covers every int8 model of the manifest', () => {
    expect(ids.sort()).toEqual(['faceres', 'gear', 'nsfw-mobilenet-v2-mid']);
  });

  for (const id of ids) {
    it(`${id}: the fused kernels compute what the quantised graph specifies`, async () => {
      const spec = manifest.models.get(id)!;
      const [fused, unfused] = [await open(spec, true), await open(spec, false)];
      for (const file of PORTRAITS) {
        const img = await decodeImage(readFileSync(fixture(file)), { maxPixels: 50e6 });
        const feeds: TensorMap =
          spec.inputs[0]!.preprocess?.resize === 'window' ? windowFeeds(img, spec, centreWindow(img)) : await imageFeeds(img, spec);
        const [a, b] = [await fused.run(feeds), await unfused.run(feeds)];
        for (const name of fused.outputNames)
          expect(cosine(a[name]!.data, b[name]!.data), `${id} ${name} ${file}`).toBeGreaterThanOrEqual(MIN_COSINE);
      }
    }, 60_000);
  }
});
