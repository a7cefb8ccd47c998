/**
 * `npm run models:reference`: runs each shipped model's *source* TF.js graph (wasm backend) on
 * the parity inputs and stores the outputs in test/fixtures/parity/<id>.json. Run once after a
 * model or parity-input change; the parity test compares ONNX Runtime against these files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { parityCases, sha256 } from './parity-inputs';
import { aboveIndices, detectionOutputs, strideFor, type ParityFile, type StoredOutput } from './parity-format';
import { buildSpecs } from './specs';
import { loadArtifacts, packageVersion } from './tfjs-source';

const outDir = fileURLToPath(new URL('../../test/fixtures/parity/', import.meta.url));

async function main(): Promise<void> {
  tf.enableProdMode();
  await tf.setBackend('wasm');
  mkdirSync(outDir, { recursive: true });
  const only = process.argv.slice(2);
  for (const spec of buildSpecs.filter((s) => !only.length || only.includes(s.id))) {
    const art = loadArtifacts(spec.source);
    const model = await loadGraphModel(
      tf.io.fromMemory({ modelTopology: art.modelTopology, weightSpecs: art.weightSpecs, weightData: art.weightData }),
    );
    const placeholder = art.modelTopology.node.find((n) => n.op === 'Placeholder')!.name;
    const file: ParityFile = {
      model: spec.id,
      generatedBy: `@tensorflow/tfjs-backend-wasm@${packageVersion('@tensorflow/tfjs-backend-wasm')}`,
      cases: [],
    };
    for (const c of await parityCases(spec)) {
      const input = tf.tensor(c.data, spec.input.shape);
      const res = model.execute(
        { [placeholder]: input },
        spec.outputs.map((o) => o.tensor),
      );
      const tensors = Array.isArray(res) ? res : [res];
      const outputs: Record<string, StoredOutput> = {};
      spec.outputs.forEach((o, i) => {
        const t = tensors[i]!;
        const values = t.dataSync() as Float32Array;
        const stride = strideFor(values.length);
        const sample: number[] = [];
        for (let j = 0; j < values.length; j += stride) sample.push(values[j]!);
        const det = detectionOutputs[spec.id]?.[o.name];
        outputs[o.name] = {
          dims: t.shape,
          stride,
          values: sample,
          ...(det ? { above: { threshold: det.threshold, activation: det.activation, indices: aboveIndices(values, det) } } : {}),
        };
      });
      tf.dispose([input, ...tensors]);
      file.cases.push({ name: c.name, inputSha256: sha256(c.data), outputs });
    }
    model.dispose();
    writeFileSync(`${outDir}${spec.id}.json`, `${JSON.stringify(file)}\n`);
    process.stderr.write(`${spec.id}: ${file.cases.length} cases\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
