/**
 * `npm run bench -- segmented-photos [--rounds N]`: the app's analyze service (`createBackend`, as
 * `picscan serve`, the desktop app and the CLI run it: the analyze worker beside the faces) on
 * photos whose subject the segmenter measures (a pet, farm animals, a horse: DeepLab's gate lets
 * it run) and on a portrait and a group photo, where it does not. Two backends in one process,
 * alternating image by image: `after-branch` (the product: DeepLab after the branch, on both cores
 * once the faces are done) and `in-branch` (`subjectAfterBranch: false`: inside the branch on the
 * worker's one thread, as before). Prints median wall ms per image and the subject stage's median.
 * `--only after-branch|in-branch` builds one backend, for this process's peak resident memory.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend } from '../../src-main/app';
import { loadConfig } from '../../src-main/config';
import { fixture, repoRoot } from '../helpers/paths';
import { arg, median } from '../helpers/bench-args';

const ROUNDS = Number(arg('--rounds')) || 5;

const negatives = (f: string): string => join(repoRoot, 'test', 'fixtures', 'negatives', f);
const IMAGES = [
  fixture('cat_chelsea.jpg'),
  negatives('photo_dog.jpg'),
  negatives('photo_horse.jpg'),
  negatives('photo_sheep.jpg'),
  negatives('photo_cow.jpg'),
  fixture('tom_cruise.jpg'),
  fixture('family_six_faces.jpg'),
];

const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-bench-segmented-')) }, {});
type Mode = 'after-branch' | 'in-branch';
const only = arg('--only') as Mode | undefined;
const backendOf: Record<Mode, () => ReturnType<ReturnType<typeof createBackend>['analyze']>> = {
  'after-branch': () => createBackend(config).analyze(),
  'in-branch': () => createBackend(config, { subjectAfterBranch: false }).analyze(),
};
if (only && !(only in backendOf)) throw new Error(`--only: one of ${Object.keys(backendOf).join(', ')}`);
const modes = Object.fromEntries((only ? [only] : (Object.keys(backendOf) as Mode[])).map((m) => [m, backendOf[m]()])) as Partial<
  Record<Mode, ReturnType<(typeof backendOf)[Mode]>>
>;
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
console.log(`load average at start ${loadavg()[0]!.toFixed(2)}; ${ROUNDS} rounds after a warm-up, modes alternating`);
for (const svc of Object.values(modes)) for (const path of IMAGES) await svc!.analyze(path); // load every model

const wall = new Map<string, number[]>();
const subject = new Map<string, number[]>();
const push = (m: Map<string, number[]>, k: string, v: number): void => void (m.get(k) ?? m.set(k, []).get(k)!).push(v);
for (let r = 0; r < ROUNDS; r++) {
  for (const path of IMAGES) {
    const order = (r % 2 ? ['in-branch', 'after-branch'] : ['after-branch', 'in-branch']) as Mode[];
    for (const mode of order.filter((m) => modes[m])) {
      const t0 = performance.now();
      const { timingsMs } = await modes[mode]!.analyze(path);
      push(wall, `${mode} ${path}`, performance.now() - t0);
      if (timingsMs['subject'] !== undefined) push(subject, `${mode} ${path}`, timingsMs['subject']);
    }
  }
}
clearInterval(sampler);
const cell = (mode: Mode, path: string): string => {
  const w = wall.get(`${mode} ${path}`);
  const s = subject.get(`${mode} ${path}`);
  return w ? `${median(w).toFixed(0)} / ${s ? median(s).toFixed(0) : '-'}` : '-';
};
console.log('image | after-branch: wall / subject ms | in-branch: wall / subject ms | in-branch / after-branch');
for (const path of IMAGES) {
  const [a, b] = [wall.get(`after-branch ${path}`), wall.get(`in-branch ${path}`)];
  const ratio = a && b ? (median(b) / median(a)).toFixed(2) : '-';
  console.log(`${path.split('/').at(-1)} | ${cell('after-branch', path)} | ${cell('in-branch', path)} | ${ratio}`);
}
console.log(`peak RSS of this process: ${(peak / 2 ** 20).toFixed(0)} MB (${only ?? 'both backends'})`);
process.exit(0);
