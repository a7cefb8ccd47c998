/**
 * `npm run bench -- group-photos [--rounds N]`: the app's analyze service (`createBackend`, as
 * `picscan serve`, the desktop app and the CLI run it: the analyze worker beside the faces) on
 * photos of 6, 12 and 24 faces composed from the people crops and on three fixtures, every feature
 * and detail. Prints the median wall time per image, the wall time each added face costs (least
 * squares over the group photos) and this process's peak resident memory (sampled every 20 ms),
 * the figures behind "the face models on the idle core" (docs/benchmarks.md, "## Peers").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend } from '../../src-main/app';
import { loadConfig } from '../../src-main/config';
import { composedGroupPhoto } from '../helpers/group-photo';
import { fixture } from '../helpers/paths';
import { arg, median } from '../helpers/bench-args';

const ROUNDS = Number(arg('--rounds')) || 4;

const dir = mkdtempSync(join(tmpdir(), 'picscan-bench-groups-'));
const images: Array<{ name: string; path: string; faces?: number }> = [];
for (const faces of [6, 12, 24]) {
  const path = join(dir, `group-${faces}.jpg`);
  writeFileSync(path, await composedGroupPhoto(faces, 6));
  images.push({ name: `group of ${faces} (composed)`, path, faces });
}
for (const f of ['tom_cruise.jpg', 'family_six_faces.jpg', 'coffee_cup.jpg']) images.push({ name: f, path: fixture(f) });

const backend = createBackend(loadConfig({ dataDir: dir }, {}));
const analyze = backend.analyze();
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
console.log(`load average at start ${loadavg()[0]!.toFixed(2)}; ${ROUNDS} rounds after a warm-up`);
for (const img of images) await analyze.analyze(img.path); // load every model
const walls = new Map<string, number[]>();
for (let r = 0; r < ROUNDS; r++) {
  for (const img of images) {
    const t0 = performance.now();
    await analyze.analyze(img.path);
    (walls.get(img.name) ?? walls.set(img.name, []).get(img.name)!).push(performance.now() - t0);
  }
}
clearInterval(sampler);
console.log('image | median wall ms');
for (const img of images) console.log(`${img.name} | ${median(walls.get(img.name)!).toFixed(0)}`);
// Slope of wall time over the composed photos' face counts: what each added face costs.
const groups = images.filter((i) => i.faces !== undefined);
const xs = groups.map((g) => g.faces!);
const ys = groups.map((g) => median(walls.get(g.name)!));
const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
const my = ys.reduce((a, b) => a + b, 0) / ys.length;
const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
console.log(`per additional face: ${slope.toFixed(1)} ms wall`);
console.log(`peak RSS ${(peak / 1e6).toFixed(0)} MB, at the end ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
await backend.close();
