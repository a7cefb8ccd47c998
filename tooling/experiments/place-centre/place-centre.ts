/**
 * Experiment (docs/galleries.md, "The centre comes from the test fixtures"): the mean pooled place
 * descriptor of a fixture-free population (the wallpapers copied by place-centre-sources.ts),
 * written over src-main/analysis/gallery/place-centre.generated.ts so that
 * `npm run bench -- gallery` (its "shipped mean" row) measures it out of sample. Not the shipped centre: restore
 * the file with git afterwards.
 * Usage: npx tsx tooling/experiments/place-centre/place-centre.ts [images-dir]
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describePlace, encodeVector } from '../../../src-main/analysis/gallery/index';
import { InferenceEngine, loadManifest } from '../../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../../src-main/intake';

const root = join(import.meta.dirname, '../../..');
const sources = process.argv[2] ?? join(tmpdir(), 'place-centre');
const modelsDir = join(root, 'models');
const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 2 });
const loader = createImageLoader(intakeOptions('desktop'));
const files = readdirSync(sources)
  .filter((f) => f.endsWith('.jpg'))
  .sort();
let sum: Float32Array | undefined;
for (const f of files) {
  const { image } = await loader.load(join(sources, f));
  // The whole image and its crops: queries are matched crop by crop, so the centre is the mean of
  // the same kind of vectors, each image weighted once.
  const d = await describePlace(image, engine);
  const vs = [d.vector, ...d.crops.map((c) => c.vector)];
  sum ??= new Float32Array(d.vector.length);
  for (const v of vs) for (let i = 0; i < v.length; i++) sum[i]! += v[i]! / vs.length / files.length;
}
const target = join(root, 'src-main', 'analysis', 'gallery', 'place-centre.generated.ts');
writeFileSync(
  target,
  `// EXPERIMENT, do not commit: the mean pooled place descriptor of the ${files.length}\n` +
    `// wallpaper images (each image's whole-frame and crop vectors averaged, no augmentation), little-endian float32, base64.\n` +
    `export const PLACE_CENTRE_IMAGES = ${files.length};\nexport const PLACE_CENTRE_BASE64 =\n  '${encodeVector(sum!)}';\n`,
);
console.log(`wrote ${target} from ${files.length} images`);
await loader.close();
await engine.dispose();
