/**
 * `npm run bench -- face-threads`: each face model at one and at two intra-op threads (the
 * engine's face-model caps `FACE_MODEL_THREADS` and `FACE_MODEL_SPARE_CORE_THREADS` come from
 * these figures), random inputs at batch 1, 4 and 8 (BlazeFace: 1), 4 alternating blocks of 8
 * runs per setting. Prints wall and CPU (`process.cpuUsage`, all threads) ms per crop.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { FACE_MODEL_THREADS, type FaceModelId } from '../../src-main/analysis/faces';
import { dynamicBatch, InferenceEngine, loadManifest, type TensorMap } from '../../src-main/inference';
import { repoRoot } from '../helpers/paths';

const modelsDir = join(repoRoot, 'models');
const engineAt = (threads: number): InferenceEngine =>
  new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: threads });
const engines = { '1 thread': engineAt(1), '2 threads': engineAt(2) };
const BLOCKS = 4;
const RUNS = 8;

console.log(`load average at start ${loadavg()[0]!.toFixed(2)}`);
console.log('model | batch | 1 thread: wall / CPU ms per crop | 2 threads: wall / CPU ms per crop');
for (const id of Object.keys(FACE_MODEL_THREADS) as FaceModelId[]) {
  const spec = engines['1 thread'].spec(id);
  const input = spec.inputs[0]!;
  for (const batch of dynamicBatch(spec) ? [1, 4, 8] : [1]) {
    const dims = input.shape.map((d, i) => (i === 0 ? batch : d));
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1)).map(() => Math.random() * 255);
    const feeds: TensorMap = { [input.name]: { data, dims } };
    const sums = new Map<string, { wall: number; cpu: number }>();
    for (const e of Object.values(engines)) for (let i = 0; i < 3; i++) await e.run(id, feeds); // load and warm
    for (let block = 0; block < BLOCKS; block++) {
      for (const [name, e] of Object.entries(engines)) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        for (let i = 0; i < RUNS; i++) await e.run(id, feeds);
        const c = process.cpuUsage(c0);
        const s = sums.get(name) ?? { wall: 0, cpu: 0 };
        s.wall += performance.now() - t0;
        s.cpu += (c.user + c.system) / 1000;
        sums.set(name, s);
      }
    }
    const cell = (name: string): string => {
      const s = sums.get(name)!;
      const per = BLOCKS * RUNS * batch;
      return `${(s.wall / per).toFixed(2)} / ${(s.cpu / per).toFixed(2)}`;
    };
    console.log(`${id} | ${batch} | ${cell('1 thread')} | ${cell('2 threads')}`);
  }
}
for (const e of Object.values(engines)) await e.dispose();
