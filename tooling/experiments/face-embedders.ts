/**
 * Builds the candidate face embedders (candidate-specs.ts: mobilefacenet, mobileface) into a
 * models folder beside links to the shipped models, with a manifest holding both, and checks
 * each against its TF.js source (wasm) like the shipped models' parity test:
 *   npx tsx tooling/experiments/face-embedders.ts --out <dir>
 *   npm run eval:gallery -- --models <dir> --descriptors faceres-upright-1.5x-v1,mobileface,…
 * Measurement only (docs/galleries.md "Other embedders measured"); nothing here is shipped.
 */
import { copyFileSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { arg, buildModel, modelsDir, type ManifestEntry } from '../convert/build';
import { fixturesDir } from '../convert/fixtures';
import { randomInput } from '../convert/parity-inputs';
import { loadArtifacts } from '../convert/tfjs-source';
import { candidateSpecs } from './candidate-specs';

const REL_TOL = 1e-4;
const EMBEDDERS = ['mobilefacenet', 'mobileface'];

/** A real face as model input: the centre square of a fixture portrait, resized to the input, mapped to the input range. */
async function portraitInput(file: string, side: number, [lo, hi]: [number, number]): Promise<Float32Array> {
  const { data } = await sharp(join(fixturesDir, file))
    .removeAlpha()
    .resize(side, side, { fit: 'cover', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Float32Array.from(data, (v) => (v / 255) * (hi - lo) + lo);
}

async function main(): Promise<void> {
  const out = resolve(arg('--out') ?? '');
  if (!arg('--out')) throw new Error('usage: face-embedders.ts --out <dir>');
  mkdirSync(out, { recursive: true });
  // The shipped models, linked (copied across file systems), and their labels.
  for (const f of readdirSync(modelsDir).filter((x) => x.endsWith('.onnx'))) {
    try {
      linkSync(join(modelsDir, f), join(out, f));
    } catch {
      copyFileSync(join(modelsDir, f), join(out, f));
    }
  }
  cpSync(join(modelsDir, 'labels'), join(out, 'labels'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(modelsDir, 'manifest.json'), 'utf8')) as { version: number; models: ManifestEntry[] };

  tf.enableProdMode();
  await tf.setBackend('wasm');
  for (const spec of candidateSpecs.filter((s) => EMBEDDERS.includes(s.id))) {
    const entry = await buildModel(spec, out);
    manifest.models = manifest.models.filter((m) => m.id !== spec.id).concat(entry);
    // Parity with the TF.js source on a real face and on seeded random input.
    const art = loadArtifacts(spec.source);
    const model = await loadGraphModel(
      tf.io.fromMemory({ modelTopology: art.modelTopology, weightSpecs: art.weightSpecs, weightData: art.weightData }),
    );
    const placeholder = art.modelTopology.node.find((n) => n.op === 'Placeholder')!.name;
    const session = await ort.InferenceSession.create(join(out, entry.file));
    for (const [name, data] of [
      ['obama_portrait.jpg', await portraitInput('obama_portrait.jpg', spec.input.shape[1]!, spec.input.range)],
      ['random', randomInput(spec, 1234)],
    ] as const) {
      const t = tf.tensor(data, spec.input.shape);
      const ref = (model.execute({ [placeholder]: t }, spec.outputs[0]!.tensor) as tf.Tensor).dataSync() as Float32Array;
      const got = (await session.run({ [spec.input.name]: new ort.Tensor('float32', data, spec.input.shape) }))[spec.outputs[0]!.name]!
        .data as Float32Array;
      let worst = 0;
      ref.forEach((b, i) => (worst = Math.max(worst, Math.abs(got[i]! - b) / (REL_TOL * Math.max(1, Math.abs(b))))));
      process.stderr.write(`${spec.id} ${name}: worst |onnx − tfjs| = ${worst.toFixed(3)} × tolerance (1e-4 relative)\n`);
      if (!(worst <= 1)) throw new Error(`${spec.id}: ONNX differs from TF.js on ${name}`);
      tf.dispose(t);
    }
    await session.release();
    model.dispose();
    process.stderr.write(`${spec.id}: ${(entry.bytes / 1e6).toFixed(2)} MB ${entry.sha256.slice(0, 12)}\n`);
  }
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
