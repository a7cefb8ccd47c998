/**
 * `npm run bench -- detect-calls [--rounds N] [--only one-core|worker]`: the app's detect service
 * (`createBackend`, as `picscan serve`, the desktop app and the CLI run it) one call at a time, at
 * the spec's default minHeadScale (the most search windows), on the portraits, a face-free photo
 * and photos of 12 and 24 faces composed from the people crops. Two backends alternate: `worker`
 * (the product: the face models take the analyze worker's core while it is idle) and `one-core`
 * (`branchWorker: false`: every model on the calling thread, as before). Prints median wall and
 * CPU (this process, all threads) ms per call and the ratio; with `--only`, one backend alone and
 * this process's peak resident memory (sampled every 20 ms).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend } from '../../src-main/app';
import { loadConfig } from '../../src-main/config';
import { MIN_HEAD_SCALE } from '../../src-main/shared/spec';
import { composedGroupPhoto } from '../helpers/group-photo';
import { fixture } from '../helpers/paths';
import { arg, median } from '../helpers/bench-args';

const ROUNDS = Number(arg('--rounds')) || 7;
const only = arg('--only');
if (only !== undefined && only !== 'one-core' && only !== 'worker') throw new Error('--only takes one-core or worker');

const dir = mkdtempSync(join(tmpdir(), 'picscan-bench-detect-'));
const images: Array<{ name: string; path: string }> = [
  'tom_cruise.jpg',
  'obama_portrait.jpg',
  'grace_hopper.jpg',
  'family_six_faces.jpg',
  'coffee_cup.jpg',
].map((f) => ({ name: f, path: fixture(f) }));
for (const faces of [12, 24]) {
  const path = join(dir, `group-${faces}.jpg`);
  writeFileSync(path, await composedGroupPhoto(faces, 6));
  images.push({ name: `group of ${faces} (composed)`, path });
}

const config = loadConfig({ dataDir: dir }, {});
const all = { 'one-core': createBackend(config, { branchWorker: false }), worker: createBackend(config) };
const backends = Object.entries(all).filter(([name]) => !only || name === only);
const detect = (b: (typeof all)['worker'], path: string) =>
  b.detect().detect({ image: path, minHeadScale: MIN_HEAD_SCALE.default, selector: ['FRONTAL'] });

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
console.log(`load average at start ${loadavg()[0]!.toFixed(2)}; ${ROUNDS} rounds after a warm-up, minHeadScale ${MIN_HEAD_SCALE.default}`);
for (const [, b] of backends) for (const img of images) await detect(b, img.path); // load every model, start the worker
const wall = new Map<string, number[]>();
const cpu = new Map<string, number[]>();
const faces = new Map<string, number>();
const push = (m: Map<string, number[]>, k: string, v: number): void => void (m.get(k) ?? m.set(k, []).get(k)!).push(v);
for (let r = 0; r < ROUNDS; r++) {
  for (const img of images) {
    // Alternate which backend goes first, so neither always runs on a warmer cache.
    for (const [name, b] of r % 2 ? [...backends].reverse() : backends) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const out = await detect(b, img.path);
      push(wall, `${name} ${img.name}`, performance.now() - t0);
      const c = process.cpuUsage(c0);
      push(cpu, `${name} ${img.name}`, (c.user + c.system) / 1000);
      faces.set(`${name} ${img.name}`, out.faces.length);
    }
  }
}
clearInterval(sampler);
const names = backends.map(([n]) => n);
console.log(
  `image | ${names.map((n) => `${n}: faces, wall / CPU ms`).join(' | ')}${names.length === 2 ? ' | one-core / worker wall' : ''}`,
);
const ratios: number[] = [];
for (const img of images) {
  const cells = names.map((n) => {
    const k = `${n} ${img.name}`;
    return `${faces.get(k)}, ${median(wall.get(k)!).toFixed(1)} / ${median(cpu.get(k)!).toFixed(1)}`;
  });
  if (names.length === 2) ratios.push(median(wall.get(`one-core ${img.name}`)!) / median(wall.get(`worker ${img.name}`)!));
  console.log(`${img.name} | ${cells.join(' | ')}${names.length === 2 ? ` | ${ratios.at(-1)!.toFixed(2)}` : ''}`);
}
if (ratios.length) console.log(`median ratio one-core / worker: ${median(ratios).toFixed(2)}×`);
console.log(`peak RSS ${(peak / 2 ** 20).toFixed(0)} MB${only ? '' : ' (both backends in this process; --only measures one)'}`);
for (const [, b] of backends) await b.close();
