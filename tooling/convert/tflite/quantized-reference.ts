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
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { arg } from '../build';
import { convertQuantizedSpec, loadCoral } from './quantized-build';
import { bytesSha256, quantizedCases } from './quantized-inputs';
import {
  agreement,
  argmax,
  asNumbers,
  comparable,
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

/** A copy of the source whose graph output `k` is re-pointed at another tensor (same output count). */
function repointed(bytes: Uint8Array, k: number, tensor: number): Uint8Array {
  const copy = bytes.slice();
  const sg = Model.read(copy).subgraphs()[0]!;
  new DataView(copy.buffer, copy.byteOffset, copy.byteLength).setInt32(sg.outputsOffset() + 4 * k, tensor, true);
  return copy;
}

/**
 * The models the interpreter runs for `spec`: one per graph output (re-pointed at the ARG_MAX input
 * when the output is an ARG_MAX, with the scores' shape to reduce here) and one per parity tap.
 */
export function referenceModels(
  spec: QuantizedBuildSpec,
): { name: string; bytes: Uint8Array; argmaxOf: number[] | null; stride: number }[] {
  const source = loadCoral(spec);
  const model = Model.read(source);
  const sg = model.subgraphs()[0]!;
  const tensors = sg.tensors();
  const codes = model.operatorCodes().map((c) => BuiltinOp[c.builtinCode()]);
  if (sg.outputs().length !== 1) throw new Error(`${spec.id}: the reference handles single-output models`);
  const out = sg.outputs()[0]!;
  const producer = sg.operators().find((op) => op.outputs()[0] === out);
  const runs: { name: string; bytes: Uint8Array; argmaxOf: number[] | null; stride: number }[] = [];
  if (producer && codes[producer.opcodeIndex()] === 'ARG_MAX') {
    const scores = producer.inputs()[0]!;
    runs.push({ name: spec.outputs[0]!.name, bytes: repointed(source, 0, scores), argmaxOf: tensors[scores]!.shape(), stride: 1 });
  } else runs.push({ name: spec.outputs[0]!.name, bytes: source, argmaxOf: null, stride: 1 });
  // Further shipped outputs (the classifier's pooled features) are inner tensors of the source:
  // recorded like the parity taps, from a copy whose output is re-pointed at them.
  for (const tap of [...spec.outputs.slice(1).map((o) => ({ ...o, stride: 1 })), ...(spec.parityTaps ?? [])]) {
    const t = tensors.findIndex((x) => x.name() === tap.tensor);
    if (t < 0) throw new Error(`${spec.id}: no tensor ${tap.tensor}`);
    runs.push({ name: tap.name, bytes: repointed(source, 0, t), argmaxOf: null, stride: tap.stride ?? 1 });
  }
  return runs;
}

/** Last-axis first-maximum of an NHWC score tensor. */
function argmaxLastAxis(scores: ArrayLike<number>, shape: number[]): Int32Array {
  const c = shape.at(-1)!;
  const out = new Int32Array(scores.length / c);
  for (let i = 0; i < out.length; i++) out[i] = argmax(scores, i * c, i * c + c);
  return out;
}

async function record(spec: QuantizedBuildSpec): Promise<void> {
  const cases = await quantizedCases(spec);
  const session = await ort.InferenceSession.create(convertQuantizedSpec(spec, 'qlinear', true).bytes, {
    ...EXACT_INTEGER_SESSION,
    intraOpNumThreads: 1,
  });
  const file: QuantizedParityFile = {
    model: spec.id,
    generatedBy: `${TFLITE_WEB} (TFLite interpreter, WASM)`,
    cases: cases.map((c) => ({ name: c.name, inputSha256: bytesSha256(c.data), outputs: {} })),
  };
  try {
    for (const run of referenceModels(spec)) {
      const ref = await TfliteReference.open(run.bytes);
      try {
        for (const [k, c] of cases.entries()) {
          const [raw] = await ref.runTyped(c.data);
          const want = run.argmaxOf ? argmaxLastAxis(asNumbers(raw!), run.argmaxOf) : asNumbers(raw!);
          const got = (await session.run({ [spec.input.name]: new ort.Tensor('uint8', c.data, spec.input.shape) }))[run.name]!;
          const stored = storeOutput(got.dims.map(Number), want, run.argmaxOf ? 'rle' : 'values', run.stride);
          file.cases[k]!.outputs[run.name] = stored;
          process.stdout.write(
            `${spec.id}  ${c.name.padEnd(28)} ${run.name.padEnd(14)} ${summary(comparable(asNumbers(got.data as ArrayLike<number>), stored), storedValues(stored), !!run.argmaxOf)}\n`,
          );
        }
      } finally {
        await ref.close();
      }
    }
  } finally {
    await session.release();
  }
  mkdirSync(parityDir, { recursive: true });
  writeFileSync(join(parityDir, `${spec.id}.json`), `${JSON.stringify(file)}\n`);
}

/** One line of figures: class-map agreement, or value steps and top-1. */
function summary(mine: Int32Array, stored: Int32Array, classMap: boolean): string {
  if (classMap)
    return `class agreement ${(100 * agreement(mine, stored)).toFixed(3)} % (rule >= ${100 * PARITY_RULES.minClassAgreement} % on fixtures)`;
  const { maxSteps, differing, top1Equal } = compareValues(mine, stored);
  return `max ${maxSteps} steps, ${differing}/${mine.length} values differ, top-1 ${top1Equal ? 'equal' : 'DIFFERENT'} (${argmax(stored)})`;
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
