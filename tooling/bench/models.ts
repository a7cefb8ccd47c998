/**
 * `npm run bench:models`: per shipped model, median wall time of 20 runs after warm-up on ONNX
 * Runtime at 1 and 2 intra-op threads and on the model's TF.js source with the wasm backend.
 * Each (model, runtime) runs in its own process so sessions and thread pools never share a heap.
 * Prints a markdown table (copied into docs/benchmarks.md, "## Models").
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSpecs } from '../convert/specs';

const RUNS = 20;
const WARMUP = 3;
const self = fileURLToPath(import.meta.url);
const repoRoot = join(self, '..', '..', '..');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function input(shape: number[], range: [number, number]): Float32Array {
  const n = shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = range[0] + (((i * 2654435761) % 1000) / 1000) * (range[1] - range[0]);
  return out;
}

async function timeRuns(run: () => Promise<void>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function child(id: string, runtime: string): Promise<void> {
  const spec = buildSpecs.find((s) => s.id === id)!;
  const data = input(spec.input.shape, spec.input.range);
  let ms: number;
  if (runtime === 'tfjs-wasm') {
    const tf = await import('@tensorflow/tfjs-core');
    await import('@tensorflow/tfjs-backend-wasm');
    const { loadGraphModel } = await import('@tensorflow/tfjs-converter');
    const { loadArtifacts } = await import('../convert/tfjs-source');
    tf.enableProdMode();
    await tf.setBackend('wasm');
    const art = loadArtifacts(spec.source);
    const model = await loadGraphModel(
      tf.io.fromMemory({ modelTopology: art.modelTopology, weightSpecs: art.weightSpecs, weightData: art.weightData }),
    );
    const x = tf.tensor(data, spec.input.shape);
    const names = spec.outputs.map((o) => o.tensor);
    ms = await timeRuns(async () => {
      const out = model.execute(x, names);
      const list = Array.isArray(out) ? out : [out];
      await Promise.all(list.map((t) => t.data()));
      tf.dispose(list);
    });
  } else {
    const { InferenceEngine, loadManifest } = await import('../../src-main/inference');
    const modelsDir = join(repoRoot, 'models');
    const threads = Number(runtime.replace('ort-', ''));
    const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: threads });
    const feeds = { [spec.input.name]: { data, dims: spec.input.shape } };
    await engine.session(id);
    ms = await timeRuns(async () => {
      await engine.run(id, feeds);
    });
    await engine.dispose();
  }
  process.stdout.write(`${JSON.stringify({ id, runtime, ms })}\n`);
}

function main(): void {
  const runtimes = ['ort-1', 'ort-2', 'tfjs-wasm'];
  const rows: string[] = [];
  rows.push(`| model | ORT 1 thread (ms) | ORT 2 threads (ms) | TF.js wasm (ms) | TF.js / ORT-2 |`);
  rows.push('|---|---:|---:|---:|---:|');
  for (const spec of buildSpecs) {
    const r: Record<string, number> = {};
    for (const rt of runtimes) {
      const out = execFileSync(process.execPath, [...process.execArgv, self, '--child', spec.id, rt], {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      r[rt] = (JSON.parse(out.trim().split('\n').pop()!) as { ms: number }).ms;
    }
    rows.push(
      `| ${spec.id} | ${r['ort-1']!.toFixed(1)} | ${r['ort-2']!.toFixed(1)} | ${r['tfjs-wasm']!.toFixed(1)} | ${(r['tfjs-wasm']! / r['ort-2']!).toFixed(1)}x |`,
    );
    process.stderr.write(`${rows[rows.length - 1]}\n`);
  }
  process.stdout.write(
    `\nMedian of ${RUNS} runs after ${WARMUP} warm-up runs, batch 1, one process per model and runtime.\n\n${rows.join('\n')}\n`,
  );
}

const i = process.argv.indexOf('--child');
if (i >= 0) await child(process.argv[i + 1]!, process.argv[i + 2]!);
else main();
