/**
 * Parity of the converted ONNX against the original .tflite run by TFLite's interpreter
 * (reference.ts): 3 fixture images + 1 seeded random input per model. Project rule:
 * |onnx - ref| <= 1e-4 * max(1, |ref|) for every output value.
 *   npx tsx tooling/experiments/oidv4-ssd/parity.ts [--only id]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { convertSpec } from './build';
import { randomInput } from '../../convert/parity-inputs';
import { fixtureInput } from './inputs';
import { TfliteReference } from '../../convert/tflite/reference';
import { loadTflite } from './source';
import { tfliteSpecs } from './specs';

const TOLERANCE = 1e-4;
const IMAGES: Record<string, string[]> = { 'oidv4-ssd': ['cameraman_bw.png', 'coffee_cup.jpg', 'cat_chelsea.jpg'] };

export interface ParityRow {
  model: string;
  input: string;
  output: string;
  maxAbs: number;
  /** max |onnx - ref| / max(1, |ref|): must be <= TOLERANCE. */
  maxRel: number;
}

export async function parity(only?: string[]): Promise<ParityRow[]> {
  const rows: ParityRow[] = [];
  for (const spec of tfliteSpecs.filter((s) => !only || only.includes(s.id))) {
    const { bytes } = convertSpec(spec);
    const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    const ref = await TfliteReference.open(loadTflite(spec.source));
    try {
      const cases: [string, Float32Array][] = [];
      for (const f of IMAGES[spec.id] ?? []) cases.push([f, await fixtureInput(spec, f)]);
      cases.push(['random', randomInput(spec, 1234)]);
      for (const [name, data] of cases) {
        const want = await ref.run(data);
        const got = await session.run({ [spec.input.name]: new ort.Tensor('float32', data, spec.input.shape) });
        spec.outputs.forEach((o, k) => {
          const a = got[o.name]!.data as Float32Array;
          const b = want[k]!;
          if (a.length !== b.length) throw new Error(`${spec.id} ${o.name}: ${a.length} vs ${b.length} values`);
          let maxAbs = 0;
          let maxRel = 0;
          for (let i = 0; i < a.length; i++) {
            const d = Math.abs(a[i]! - b[i]!);
            maxAbs = Math.max(maxAbs, d);
            maxRel = Math.max(maxRel, d / Math.max(1, Math.abs(b[i]!)));
          }
          rows.push({ model: spec.id, input: name, output: o.name, maxAbs, maxRel });
        });
      }
    } finally {
      await ref.close();
      await session.release();
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--only');
  const rows = await parity(i >= 0 ? process.argv[i + 1]!.split(',') : undefined);
  let ok = true;
  for (const r of rows) {
    const pass = r.maxRel <= TOLERANCE;
    ok &&= pass;
    process.stdout.write(
      `${r.model}  ${r.input.padEnd(18)} ${r.output.padEnd(14)} max|d| ${r.maxAbs.toExponential(2)}  max rel ${r.maxRel.toExponential(2)}  ${pass ? 'ok' : 'FAIL'}\n`,
    );
  }
  if (!ok) process.exit(1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
