// `npm run eval:face-scales [-- --baseline DIR]`: how far the face pipeline's answers move when the
// same face is larger in the image. Every people crop (test/fixtures/people) and the five portrait
// fixtures, analysed as they are and enlarged 2× and 3× (lanczos3); for the largest face of each,
// the differences between the two: age, male probability (and gender flips), the 468 mesh points
// (per cent of the box, scaled back), emotion scores (total variation) and the gallery descriptor
// (cosine). Large faces' crops shrink a lot into the models' inputs (inference/window-source.ts),
// so this is the measure of how they are sampled. `--baseline DIR` runs another checkout's
// pipeline on its own models beside this one.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type * as FacesModule from '../../src-main/analysis/faces';
import type * as GalleryModule from '../../src-main/analysis/gallery';
import type * as InferenceModule from '../../src-main/inference';
import { fixture, repoRoot } from '../helpers/paths';

const PORTRAITS = ['tom_cruise.jpg', 'obama_portrait.jpg', 'biden_portrait.jpg', 'grace_hopper.jpg', 'astronaut_eileen_collins.jpg'];
const SCALES = [2, 3];

const at = process.argv.indexOf('--baseline');
const roots: [string, string][] = [['this build', repoRoot]];
if (at >= 0) roots.push(['baseline', resolve(process.argv[at + 1]!)]);

const people = join(repoRoot, 'test/fixtures/people');
const files = [
  ...readdirSync(people)
    .filter((f) => /\.(jpe?g|png)$/i.test(f))
    .map((f) => join(people, f)),
  ...PORTRAITS.map((f) => fixture(f)),
];

const mean = (x: readonly number[]): number => x.reduce((s, v) => s + v, 0) / x.length;

console.log(`${files.length} images, the largest face of each, as is against enlarged\n`);
console.log(
  '| pipeline | scale | faces | age \\|Δ\\| mean | male \\|Δ\\| mean | gender flips | mesh Δ, % of box | emotion TV mean | descriptor cosine mean / min |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const [name, root] of roots) {
  const src = async <T>(p: string): Promise<T> => (await import(pathToFileURL(join(root, 'src-main', p)).href)) as T;
  const faces = await src<typeof FacesModule>('analysis/faces/index.ts');
  const gallery = await src<typeof GalleryModule>('analysis/gallery/index.ts');
  const inference = await src<typeof InferenceModule>('inference/index.ts');
  const modelsDir = join(root, 'models');
  const engine = new inference.InferenceEngine(inference.loadManifest(join(modelsDir, 'manifest.json')), {
    modelsDir,
    intraOpNumThreads: 2,
  });
  const opts = { minHeadScale: 0.1, selector: faces.selectorPlan(['FRONTAL']) };
  type Face = Awaited<ReturnType<typeof faces.detectFacesInImage>>[number];
  const largest = (found: Face[]): Face | undefined => [...found].sort((a, b) => b.box.width - a.box.width)[0];
  for (const k of SCALES) {
    const age: number[] = [];
    const male: number[] = [];
    const mesh: number[] = [];
    const emotion: number[] = [];
    const cosines: number[] = [];
    let flips = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      const { width } = await sharp(bytes).metadata();
      const small = await inference.decodeImage(bytes, { maxPixels: 50e6 });
      const enlarged = await sharp(bytes)
        .resize({ width: width! * k, kernel: 'lanczos3' })
        .png()
        .toBuffer();
      const big = await inference.decodeImage(enlarged, { maxPixels: 50e6 });
      const a = largest(await faces.detectFacesInImage(small, opts, engine));
      const b = largest(await faces.detectFacesInImage(big, opts, engine));
      if (!a || !b) continue;
      age.push(Math.abs(a.ageYears - b.ageYears));
      male.push(Math.abs(a.male - b.male));
      if (a.male >= 0.5 !== b.male >= 0.5) flips++;
      const s = small.width / big.width;
      mesh.push((100 * mean(a.mesh.map((p, i) => Math.hypot(p[0] - b.mesh[i]![0] * s, p[1] - b.mesh[i]![1] * s)))) / a.box.width);
      const ea = Object.values(a.emotions);
      const eb = Object.values(b.emotions);
      emotion.push(ea.reduce((sum, v, i) => sum + Math.abs(v - eb[i]!), 0) / 2);
      const da = await gallery.describeFace(small, a.box, engine);
      const db = await gallery.describeFace(big, b.box, engine);
      if (da && db) cosines.push(gallery.cosine(da.vector, db.vector));
    }
    console.log(
      `| ${name} | ${k}× | ${age.length} | ${mean(age).toFixed(2)} | ${mean(male).toFixed(4)} | ${flips} | ${mean(mesh).toFixed(3)} | ${mean(emotion).toFixed(4)} | ${mean(cosines).toFixed(5)} / ${Math.min(...cosines).toFixed(4)} |`,
    );
  }
  await engine.dispose();
}
