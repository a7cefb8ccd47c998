/**
 * `npm run models:reference:tflite`: records the TFLite interpreter's outputs (tfjs-tflite WASM in
 * headless Chromium, reference.ts) for the quantized models on their parity inputs into
 * test/fixtures/parity/<id>.json, and prints how the converted ONNX (ONNX Runtime) compares.
 *   --only id,id   record only these models
 *
 * tfjs-tflite cannot read int64 tensors, so for a model ending in ARG_MAX the interpreter runs a
 * copy whose graph output is re-pointed at the ARG_MAX input (the uint8 class scores) and the
 * first-maximum index is taken here, which is TFLite's ARG_MAX rule.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { arg } from '../build';
import { convertQuantizedSpec, loadCoral } from './quantized-build';
import { bytesSha256, quantizedCases } from './quantized-inputs';
import {
  agreement,
  argmax,
  asNumbers,
  compareValues,
  PARITY_RULES,
  storedValues,
  storeOutput,
  type QuantizedParityFile,
} from './quantized-parity';
import { quantizedSpecs, type QuantizedBuildSpec } from './quantized-specs';
import { TFLITE_WEB, TfliteReference } from './reference';
import { BuiltinOp, Model } from './schema';

export const parityDir = fileURLToPath(new URL('../../../test/fixtures/parity/', import.meta.url));

/** The model the interpreter runs, and per output whether it must be reduced by argmax here. */
export function referenceModel(spec: QuantizedBuildSpec): { bytes: Uint8Array; argmaxOf: (number[] | null)[] } {
  const bytes = loadCoral(spec).slice();
  const model = Model.read(bytes);
  const sg = model.subgraphs()[0]!;
  const tensors = sg.tensors();
  const codes = model.operatorCodes().map((c) => BuiltinOp[c.builtinCode()]);
  const outs = sg.outputs();
  const argmaxOf: (number[] | null)[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  outs.forEach((t, k) => {
    const producer = sg.operators().find((op) => op.outputs()[0] === t);
    if (producer && codes[producer.opcodeIndex()] === 'ARG_MAX') {
      const scores = producer.inputs()[0]!;
      view.setInt32(sg.outputsOffset() + 4 * k, scores, true);
      argmaxOf.push(tensors[scores]!.shape());
    } else argmaxOf.push(null);
  });
  return { bytes, argmaxOf };
}

/** Last-axis first-maximum of an NHWC score tensor. */
function argmaxLastAxis(scores: ArrayLike<number>, shape: number[]): Int32Array {
  const c = shape.at(-1)!;
  const out = new Int32Array(scores.length / c);
  for (let i = 0; i < out.length; i++) out[i] = argmax(scores, i * c, i * c + c);
  return out;
}

async function record(spec: QuantizedBuildSpec): Promise<void> {
  const { bytes, argmaxOf } = referenceModel(spec);
  const ref = await TfliteReference.open(bytes);
  const session = await ort.InferenceSession.create(convertQuantizedSpec(spec).bytes, { intraOpNumThreads: 1 });
  const file: QuantizedParityFile = { model: spec.id, generatedBy: `${TFLITE_WEB} (TFLite interpreter, WASM)`, cases: [] };
  try {
    for (const c of await quantizedCases(spec)) {
      const raw = await ref.runTyped(c.data);
      const got = await session.run({ [spec.input.name]: new ort.Tensor('uint8', c.data, spec.input.shape) });
      const outputs: QuantizedParityFile['cases'][number]['outputs'] = {};
      spec.outputs.forEach((o, k) => {
        const shape = argmaxOf[k];
        const want = shape ? argmaxLastAxis(asNumbers(raw[k]!), shape) : asNumbers(raw[k]!);
        const dims = got[o.name]!.dims.map(Number);
        outputs[o.name] = storeOutput(dims, want, shape ? 'rle' : 'values');
        const mine = asNumbers(got[o.name]!.data as ArrayLike<number>);
        const stored = storedValues(outputs[o.name]!);
        const line = shape
          ? `class agreement ${(100 * agreement(mine, stored)).toFixed(3)} % (rule >= ${100 * PARITY_RULES.minClassAgreement} %)`
          : (({ maxSteps, differing, top1Equal }) =>
              `max ${maxSteps} steps, ${differing}/${mine.length} values differ, top-1 ${top1Equal ? 'equal' : 'DIFFERENT'} (${argmax(stored)})`)(
              compareValues(mine, stored),
            );
        process.stdout.write(`${spec.id}  ${c.name.padEnd(28)} ${o.name.padEnd(14)} ${line}\n`);
      });
      file.cases.push({ name: c.name, inputSha256: bytesSha256(c.data), outputs });
    }
  } finally {
    await ref.close();
    await session.release();
  }
  mkdirSync(parityDir, { recursive: true });
  writeFileSync(join(parityDir, `${spec.id}.json`), `${JSON.stringify(file)}\n`);
}

async function main(): Promise<void> {
  const only = arg('--only')?.split(',');
  for (const spec of quantizedSpecs.filter((s) => !only || only.includes(s.id))) await record(spec);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
