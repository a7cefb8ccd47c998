/**
 * `npm run bench:int8 [-- --threads N]`: each shipped int8 model against the float model it was
 * quantised from, in one process, alternating float and int8 blocks (A, B, A, B …) so shared-load
 * swings hit both alike. Prints per model the median wall time and the CPU time per run
 * (process.cpuUsage, all threads) of each, their ratios and the load average (docs/benchmarks.md).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { EXACT_INTEGER_SESSION } from '../convert/exact-kernels';
import type { ManifestEntry } from '../convert/build';
import { arg } from '../convert/build';
import { int8Specs } from '../convert/quantize/int8-specs';
import { repoRoot } from '../../test/helpers/paths';

const ROUNDS = 12;
const PER_BLOCK = 5;
const threads = Number(arg('--threads') ?? 1);
const modelsDir = join(repoRoot, 'models');
const manifest = JSON.parse(readFileSync(join(modelsDir, 'manifest.json'), 'utf8')) as { models: ManifestEntry[] };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** A fixed, non-constant input over the model's declared range. */
function input(shape: number[], range: [number, number]): Float32Array {
  const n = shape.reduce((a, b) => a * b, 1);
  return Float32Array.from({ length: n }, (_, i) => range[0] + (((i * 2654435761) % 1000) / 1000) * (range[1] - range[0]));
}

interface Stats {
  wall: number[];
  cpuMs: number;
  runs: number;
}

async function block(s: ort.InferenceSession, feeds: Record<string, ort.Tensor>, st: Stats): Promise<void> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < PER_BLOCK; i++) {
    const t0 = performance.now();
    await s.run(feeds);
    st.wall.push(performance.now() - t0);
  }
  const c = process.cpuUsage(c0);
  st.cpuMs += (c.user + c.system) / 1000;
  st.runs += PER_BLOCK;
}

const rows = [
  `| model | float ms (wall / CPU) | int8 ms (wall / CPU) | speed-up wall | speed-up CPU | MB float → int8 |`,
  '|---|---:|---:|---:|---:|---|',
];
const load0 = loadavg()[0]!;
for (const { id } of int8Specs) {
  const e = manifest.models.find((m) => m.id === id)!;
  if (!e.quantizedFrom) throw new Error(`${id} is not int8 in the manifest (run npm run models:quantize)`);
  const opts: ort.InferenceSession.SessionOptions = { ...EXACT_INTEGER_SESSION, intraOpNumThreads: threads, graphOptimizationLevel: 'all' };
  const fs = await ort.InferenceSession.create(join(modelsDir, e.quantizedFrom.file), opts);
  const qs = await ort.InferenceSession.create(join(modelsDir, e.file), opts);
  const i = e.inputs[0]!;
  // A dynamic batch dimension (−1, the per-face models) runs at batch 1.
  const shape = i.shape.map((d) => (d < 0 ? 1 : d));
  const feeds = { [i.name]: new ort.Tensor('float32', input(shape, i.range as [number, number]), shape) };
  for (let w = 0; w < 3; w++) {
    await fs.run(feeds);
    await qs.run(feeds);
  }
  const f: Stats = { wall: [], cpuMs: 0, runs: 0 };
  const q: Stats = { wall: [], cpuMs: 0, runs: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so neither always follows the other's cache state.
    if (r % 2) {
      await block(qs, feeds, q);
      await block(fs, feeds, f);
    } else {
      await block(fs, feeds, f);
      await block(qs, feeds, q);
    }
  }
  await fs.release();
  await qs.release();
  const [fw, qw, fc, qc] = [median(f.wall), median(q.wall), f.cpuMs / f.runs, q.cpuMs / q.runs];
  rows.push(
    `| ${id} | ${fw.toFixed(1)} / ${fc.toFixed(1)} | ${qw.toFixed(1)} / ${qc.toFixed(1)} | ${(fw / qw).toFixed(2)}× | ${(fc / qc).toFixed(2)}× | ${(e.quantizedFrom.bytes / 1e6).toFixed(1)} → ${(e.bytes / 1e6).toFixed(1)} |`,
  );
  process.stderr.write(`${rows[rows.length - 1]}\n`);
}
process.stdout.write(
  `\n${ROUNDS} alternating rounds of ${PER_BLOCK} runs each, batch 1, ${threads} intra-op thread(s); wall = median run, CPU = process CPU time per run; load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}.\n\n${rows.join('\n')}\n`,
);
