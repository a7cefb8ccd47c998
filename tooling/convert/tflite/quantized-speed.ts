/**
 * Speed of the quantized models in ONNX Runtime (CPU, 1 thread): the shipped integer graph
 * (`qlinear`, int8 filters) against the same graph with the source's uint8 filters (`qlinear-u8`)
 * and the same TFLite file converted with dequantized float32 weights and activations (`float`),
 * in one run, same input, median of `--runs` (default 30) after 5 warm-ups.
 * Also writes what ORT's optimizer made of each graph (op counts), to show the integer kernels.
 *   npx tsx tooling/convert/tflite/quantized-speed.ts [--only id] [--runs N]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { EXACT_INTEGER_SESSION } from '../exact-kernels';
import { arg } from '../build';
import { ModelProto } from '../onnx-proto';
import { convertQuantizedSpec } from './quantized-build';
import { fixturePixels } from './quantized-inputs';
import { quantizedSpecs } from './quantized-specs';
import type { QuantizedMode } from './quantized';

const WARM_UPS = 5;

/** Op types after ORT's optimizations, "domain:op" -> count. */
export function optimizedOps(file: string): Record<string, number> {
  const m = ModelProto.decode(readFileSync(file)) as unknown as { graph: { node: { opType: string; domain: string }[] } };
  const out: Record<string, number> = {};
  for (const n of m.graph.node) {
    const key = n.domain ? `${n.domain}:${n.opType}` : n.opType;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

async function main(): Promise<void> {
  const only = arg('--only')?.split(',');
  const runs = Number(arg('--runs') ?? 30);
  const dir = mkdtempSync(join(tmpdir(), 'picscan-speed-'));
  try {
    for (const spec of quantizedSpecs.filter((s) => !only || only.includes(s.id))) {
      const input = new ort.Tensor('uint8', await fixturePixels(spec, 'cat_chelsea.jpg'), spec.input.shape);
      for (const mode of ['qlinear', 'qlinear-u8', 'float'] as QuantizedMode[]) {
        const { bytes } = convertQuantizedSpec(spec, mode);
        const optimized = join(dir, `${spec.id}-${mode}.onnx`);
        const session = await ort.InferenceSession.create(bytes, {
          ...EXACT_INTEGER_SESSION,
          intraOpNumThreads: 1,
          interOpNumThreads: 1,
          optimizedModelFilePath: optimized,
        });
        for (let i = 0; i < WARM_UPS; i++) await session.run({ [spec.input.name]: input });
        const times: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          await session.run({ [spec.input.name]: input });
          times.push(performance.now() - t0);
        }
        await session.release();
        times.sort((a, b) => a - b);
        const ops = Object.entries(optimizedOps(optimized))
          .map(([k, v]) => `${k}×${v}`)
          .join(' ');
        process.stdout.write(
          `${spec.id} ${mode.padEnd(10)} ${(bytes.byteLength / 1e6).toFixed(2)} MB  median ${times[runs >> 1]!.toFixed(1)} ms  min ${times[0]!.toFixed(1)} ms\n  optimized: ${ops}\n`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
