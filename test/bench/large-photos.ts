// Analyze of large photos: fixtures enlarged to phone-camera sizes (2 560–4 032 px, 7.7–12.2 MP,
// lanczos3, JPEG q90), every feature and detail, two ways per checkout: `in-process` (the analyze
// service on one thread, no worker, 1 intra-op thread: the process CPU time is the analysis's) and
// `app` (the composition root's analyze, as `picscan serve` and the CLI run it: the face-free branch
// in the analyze worker). With `--baseline <checkout>` the other checkout's services (its own
// sources and models) run in the same process, and all alternate call by call, so load hits them
// alike. Prints per-photo medians of CPU and wall time over `--rounds` rounds (default 4, after a
// warm-up) and the captions and faces. `--set portraits` runs fixture portraits enlarged 2–3× to
// 1.3–4.1 MP instead (below the working copy's threshold: large faces sampled from the photo);
// `--set panoramas` fixtures repeated side by side to 3:1–4:1 (1.1–36 MP; the wide-image rules).
// Run: npm run bench -- large-photos [--baseline <checkout>] [--rounds N] [--set phone|portraits|panoramas].
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { enlargedJpeg, HIGH_RES_PORTRAITS, LARGE_PHOTOS, PANORAMAS, sideBySideJpeg } from '../helpers/large-photos';
import { repoRoot } from '../helpers/paths';

const { values } = parseArgs({
  options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '4' }, set: { type: 'string', default: 'phone' } },
});
const ROUNDS = Math.max(1, Number(values.rounds));
const SETS = { phone: LARGE_PHOTOS, portraits: HIGH_RES_PORTRAITS, panoramas: PANORAMAS } as const;
if (!(values.set! in SETS)) throw new Error(`--set ${values.set}: one of ${Object.keys(SETS).join(', ')}`);
const PHOTOS = SETS[values.set as keyof typeof SETS];

interface Analyzer {
  analyze(path: string): Promise<{ caption: string; faces: string }>;
  close(): Promise<void>;
}

/** The analyze service of the checkout at `root`, in process or through its composition root. */
async function analyzerOf(root: string, mode: 'in-process' | 'app'): Promise<Analyzer> {
  const src = (p: string): Promise<Record<string, any>> => import(join(root, 'src-main', p)); // eslint-disable-line @typescript-eslint/no-explicit-any
  const { loadConfig } = await src('config/index.ts');
  const { parseAnalyzeOptions } = await src('services/api/index.ts');
  const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-bench-large-')) }, {});
  const all = parseAnalyzeOptions({});
  let service: { analyze(path: string, options: unknown): Promise<{ data: Record<string, any> }> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  let close = async (): Promise<void> => undefined;
  if (mode === 'app') {
    const { createBackend } = await src('app/backend.ts');
    const backend = createBackend(config);
    service = backend.analyze();
    close = () => backend.close();
  } else {
    const { createImageLoader, intakeOptions } = await src('intake/index.ts');
    const { analyzeModelsFromEngine, createAnalyzeService } = await src('services/analyze.service.ts');
    const { openLocalEngine } = await src('services/local-engine.ts');
    const engine = openLocalEngine({ ...config, modelsDir: join(root, 'models'), modelThreads: 1 });
    service = createAnalyzeService({ ...analyzeModelsFromEngine(engine), loader: createImageLoader(intakeOptions('desktop')) });
    close = () => engine.dispose();
  }
  return {
    async analyze(path) {
      const { data } = await service.analyze(path, all);
      const faces = (data.faces ?? []) as Array<{ gender: string; age: number }>;
      return { caption: data.description.captions[0].text as string, faces: faces.map((f) => `${f.gender[0]}${f.age}`).join(' ') };
    },
    close,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'picscan-bench-large-photos-'));
try {
  const paths: string[] = [];
  for (const [file, w, h] of PHOTOS) {
    const path = join(dir, `${w}x${h}-${file}`);
    writeFileSync(path, await (values.set === 'panoramas' ? sideBySideJpeg : enlargedJpeg)(file, w, h));
    paths.push(path);
  }
  const roots: Array<[string, string]> = [['this checkout', repoRoot]];
  if (values.baseline) roots.push([`baseline ${values.baseline}`, resolve(values.baseline)]);
  const contestants: Array<[string, Analyzer]> = [];
  for (const mode of ['in-process', 'app'] as const)
    for (const [name, root] of roots) contestants.push([`${name}, ${mode}`, await analyzerOf(root, mode)]);
  console.log(
    `load average before: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; ${ROUNDS} rounds after a warm-up, alternating`,
  );
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
  };
  const sums = contestants.map(() => ({ cpu: 0, wall: 0 }));
  console.log(
    `| photo | ${contestants.map(([n]) => `${n}: CPU / wall ms`).join(' | ')} | ${contestants.map(([n]) => `${n}: caption; faces`).join(' | ')} |`,
  );
  console.log(`|---|${contestants.map(() => '---:|').join('')}${contestants.map(() => '---|').join('')}`);
  for (const [i, path] of paths.entries()) {
    const cpu = contestants.map(() => [] as number[]);
    const wall = contestants.map(() => [] as number[]);
    const said = contestants.map(() => '');
    for (let r = 0; r <= ROUNDS; r++) {
      const order = r % 2 ? [...contestants.keys()].reverse() : [...contestants.keys()];
      for (const c of order) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const out = await contestants[c]![1].analyze(path);
        const used = process.cpuUsage(c0);
        if (r === 0) continue; // warm-up: model loading
        cpu[c]!.push((used.user + used.system) / 1000);
        wall[c]!.push(performance.now() - t0);
        said[c] = `${out.caption}; ${out.faces}`;
      }
    }
    contestants.forEach((_, c) => {
      sums[c]!.cpu += median(cpu[c]!);
      sums[c]!.wall += median(wall[c]!);
    });
    const [file, w, h] = PHOTOS[i]!;
    console.log(
      `| ${file} ${w}×${h} | ${contestants.map((_, c) => `${median(cpu[c]!).toFixed(0)} / ${median(wall[c]!).toFixed(0)}`).join(' | ')} | ${said.join(' | ')} |`,
    );
  }
  console.log('sum of medians:');
  contestants.forEach(([n], c) => console.log(`  ${n}: CPU ${sums[c]!.cpu.toFixed(0)} ms, wall ${sums[c]!.wall.toFixed(0)} ms`));
  for (const [, a] of contestants) await a.close();
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
