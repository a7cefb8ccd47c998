/**
 * CPU A/B of analyze's face attribute level (docs/benchmarks.md "Per-face profile"):
 * `npx tsx test/main/analysis/faces/levels-ab.ts [--rounds N]`.
 *
 * Two analyze services over one engine (face models at 1 intra-op thread as in the app, the rest
 * at 2), one with `faceAttributes: 'full'` (gear too, as before) and one with the default
 * `summary`, every feature and detail, called alternately (A, B, B, A …) on the same images: the
 * portraits, family_six_faces.jpg and the 12- and 24-face photos composed as in
 * `npm run bench -- peers`. Prints per-image median CPU (process.cpuUsage, all threads) and wall
 * ms, and the least-squares CPU and wall cost per additional face.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaceAttributeLevel } from '../../../../src-main/analysis/faces';
import { parseAnalyzeOptions } from '../../../../src-main/services/api';
import { analyzeModelsFromEngine, createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { composedGroupPhoto } from '../../../helpers/group-photo';
import { fixture } from '../../../helpers/paths';
import { openFaceStack } from './fixture-eval';

const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 4;
const stack = openFaceStack(2);
const tmp = mkdtempSync(join(tmpdir(), 'picscan-levels-'));

/** A composed group photo written to a file (the analyze service reads files). */
async function groupPhoto(count: number, columns: number): Promise<string> {
  const path = join(tmp, `group-${count}.jpg`);
  writeFileSync(path, await composedGroupPhoto(count, columns));
  return path;
}

const images: Array<[string, string]> = [
  ['obama_portrait.jpg', fixture('obama_portrait.jpg')],
  ['obama_biden_two_people.jpg', fixture('obama_biden_two_people.jpg')],
  ['family_six_faces.jpg', fixture('family_six_faces.jpg')],
  ['group of 12 (composed)', await groupPhoto(12, 4)],
  ['group of 24 (composed)', await groupPhoto(24, 6)],
];
const all = parseAnalyzeOptions({});
const services = (['full', 'summary'] as FaceAttributeLevel[]).map(
  (faceAttributes) =>
    [faceAttributes, createAnalyzeService({ ...analyzeModelsFromEngine(stack.engine), loader: stack.loader, faceAttributes })] as const,
);
type Sample = { cpu: number; wall: number; faces: number };
const samples = new Map<string, Sample[]>();
async function once(level: string, svc: (typeof services)[number][1], name: string, path: string): Promise<void> {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const { data } = await svc.analyze(path, all);
  const c = process.cpuUsage(c0);
  const key = `${level}\t${name}`;
  samples.set(key, [
    ...(samples.get(key) ?? []),
    { cpu: (c.user + c.system) / 1000, wall: performance.now() - w0, faces: data.faces?.length ?? 0 },
  ]);
}
for (const [level, svc] of services) for (const [name, path] of images) await once(`warm ${level}`, svc, name, path);
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? services : [...services].reverse();
  for (const [name, path] of images) for (const [level, svc] of order) await once(level, svc, name, path);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`\n${ROUNDS} rounds, alternating; per-image medians\n`);
console.log('| image | faces (full / summary) | full: CPU / wall ms | summary: CPU / wall ms | CPU ratio |');
console.log('|---|---:|---:|---:|---:|');
for (const [name] of images) {
  const f = samples.get(`full\t${name}`)!;
  const s = samples.get(`summary\t${name}`)!;
  const [fc, sc] = [median(f.map((x) => x.cpu)), median(s.map((x) => x.cpu))];
  console.log(
    `| ${name} | ${f[0]!.faces} / ${s[0]!.faces} | ${fc.toFixed(0)} / ${median(f.map((x) => x.wall)).toFixed(0)} | ${sc.toFixed(0)} / ${median(s.map((x) => x.wall)).toFixed(0)} | ${(sc / fc).toFixed(2)} |`,
  );
}
const slope = (level: string, what: 'cpu' | 'wall'): number => {
  const pts = images.map(([name]) => {
    const xs = samples.get(`${level}\t${name}`)!;
    return [xs[0]!.faces, median(xs.map((x) => x[what]))] as const;
  });
  const mx = pts.reduce((a, [x]) => a + x, 0) / pts.length;
  const my = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
  return pts.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / pts.reduce((a, [x]) => a + (x - mx) ** 2, 0);
};
for (const level of ['full', 'summary'])
  console.log(`\nper additional face, ${level}: CPU ${slope(level, 'cpu').toFixed(1)} ms, wall ${slope(level, 'wall').toFixed(1)} ms`);
await stack.close();
