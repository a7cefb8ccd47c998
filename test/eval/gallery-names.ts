// Names given with the two fixture portraits enrolled (Obama, Biden), by a candidate person
// descriptor: every fixture photo, every face-free negative and every people crop, as the
// false-names test does for the shipped matcher, plus the CPU time of describing one face
// (docs/galleries.md "Other embedders measured").
//   npx tsx test/eval/gallery-names.ts [--models <dir>] --descriptor <name> --threshold <t> --margin <m>
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { detectFacesInImage, selectorPlan } from '../../src-main/analysis/faces';
import { cosine, type FaceBox } from '../../src-main/analysis/gallery/index';
import { InferenceEngine, iou, loadManifest } from '../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../src-main/intake';
import type { PeopleManifestEntry } from '../fixtures/people/manifest-types';
import { fixture, repoRoot } from '../helpers/paths';
import { CANDIDATES } from './gallery-candidates';

const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const name = argOf('--descriptor') ?? 'faceres-upright-1.5x-v1';
const describe = CANDIDATES[name];
if (!describe) throw new Error(`unknown descriptor ${name}; known: ${Object.keys(CANDIDATES).join(', ')}`);
const threshold = Number(argOf('--threshold') ?? 0.7);
const margin = Number(argOf('--margin') ?? 0.05);
const modelsDir = argOf('--models') ?? join(repoRoot, 'models');

const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
const loader = createImageLoader(intakeOptions('desktop'));
const opts = { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']), skipAttributes: true };

const enrolled = new Map<string, Float32Array>();
for (const [who, file] of [
  ['Barack Obama', 'obama_portrait.jpg'],
  ['Joe Biden', 'biden_portrait.jpg'],
] as const) {
  const img = (await loader.load(fixture(file))).image;
  const box = (await detectFacesInImage(img, opts, engine))[0]!.box;
  enrolled.set(who, (await describe(img, box, engine))!);
}

interface Query {
  path: string;
  whoIs: (box: FaceBox) => string | undefined;
}
const fixtures = JSON.parse(readFileSync(fixture('manifest.json'), 'utf8')) as {
  file: string;
  truth: { faces: (FaceBox & { name?: string })[] };
}[];
const peopleDir = join(repoRoot, 'test', 'fixtures', 'people');
const negativesDir = join(repoRoot, 'test', 'fixtures', 'negatives');
const people = JSON.parse(readFileSync(join(peopleDir, 'manifest.json'), 'utf8')) as PeopleManifestEntry[];
const queries: Query[] = [
  ...fixtures.map((m) => ({ path: fixture(m.file), whoIs: (b: FaceBox) => m.truth.faces.find((t) => iou(t, b) > 0.3)?.name })),
  ...readdirSync(negativesDir)
    .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
    .map((f) => ({ path: join(negativesDir, f), whoIs: () => undefined })),
  ...people.map((p) => ({ path: join(peopleDir, p.file), whoIs: () => p.person ?? undefined })),
];

const wrong: string[] = [];
const right: string[] = [];
const cpuMs: number[] = [];
let faces = 0;
for (const q of queries) {
  const img = (await loader.load(q.path)).image;
  for (const f of await detectFacesInImage(img, opts, engine)) {
    faces++;
    const c0 = process.cpuUsage();
    const v = await describe(img, f.box, engine);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
    if (!v) continue;
    const [best, second] = [...enrolled].map(([who, ref]) => ({ who, s: cosine(v, ref) })).sort((a, b) => b.s - a.s);
    if (best!.s < threshold || best!.s - second!.s < margin) continue;
    (q.whoIs(f.box) === best!.who ? right : wrong).push(`${best!.who} ${best!.s.toFixed(3)} in ${relative(repoRoot, q.path)}`);
  }
}
cpuMs.sort((a, b) => a - b);
console.log(`${name} at ${threshold} / margin ${margin}: ${queries.length} images, ${faces} faces`);
console.log(`false names ${wrong.length}${wrong.map((w) => `\n  ${w}`).join('')}`);
console.log(`right names ${right.length}${right.map((w) => `\n  ${w}`).join('')}`);
console.log(`describing one face (mesh ×2 + embedder): CPU median ${cpuMs[cpuMs.length >> 1]!.toFixed(1)} ms`);
await loader.close();
await engine.dispose();
