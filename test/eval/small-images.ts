// `npx tsx test/eval/small-images.ts`: how the classifier reads small copies of photos, enlarged
// bilinear or bicubic to its 224 × 224 input (docs/models.md "Small images"). Measured without
// labels, as self-consistency: for each photo whose full-size top class the classifier is sure of
// (p ≥ SURE), a copy shrunk to each longest side is enlarged both ways and counted when it keeps
// that class. A last row enlarges only the short side (short side MIXED_SHORT_PX, the long side
// still shrunk). Photos: Tux Paint stamps of at least 224 px outside eval:unseen's labelled set,
// MATE's and Plasma's wallpapers, Palapeli's puzzles (the Debian packages of eval:unseen).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { classifierTopK, IMAGENET_MODEL_ID } from '../../src-main/analysis/classifier';
import { imageFeeds, InferenceEngine, loadManifest, type ResizeKernel } from '../../src-main/inference';
import { decodeImage, resizeRgb, type RgbImage } from '../../src-main/inference/image';
import { repoRoot } from '../helpers/paths';

const SURE = 0.5;
const SIDES_PX = [32, 48, 64, 96, 128, 160, 200];
const MIXED_SHORT_PX = 180;
const KERNELS: ResizeKernel[] = ['linear', 'cubic'];
const STAMPS = process.env.PICSCAN_TUXPAINT_STAMPS ?? '/usr/share/tuxpaint/stamps';
const FOLDERS = [STAMPS, '/usr/share/backgrounds', '/usr/share/wallpapers', '/usr/share/palapeli'];

const unseen = JSON.parse(readFileSync(join(repoRoot, 'test/eval/unseen-photos.json'), 'utf8')) as {
  packages: Record<string, { photos: Record<string, string[]> }>;
};
const labelled = new Set(Object.keys(unseen.packages['tuxpaint-stamps-default']!.photos));
const files: string[] = [];
const walk = (dir: string): void => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(png|jpe?g)$/i.test(name) && !(path.startsWith(STAMPS) && labelled.has(relative(STAMPS, path)))) files.push(path);
  }
};
for (const dir of FOLDERS) {
  try {
    walk(dir);
  } catch {
    throw new Error(
      `${dir} not found (apt-get install tuxpaint-stamps-default mate-backgrounds plasma-workspace-wallpapers palapeli-data)`,
    );
  }
}

const modelsDir = join(repoRoot, 'models');
const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 2 });
const spec = engine.spec(IMAGENET_MODEL_ID);
/** Top class of an image already at the input's size (no resize of its own). */
const topOf = async (img: RgbImage) => classifierTopK(await engine.run(IMAGENET_MODEL_ID, await imageFeeds(img, spec)), 1)[0]!;
const copyOf = (img: RgbImage, scale: number): Promise<RgbImage> =>
  resizeRgb(img, Math.max(1, Math.round(img.width * scale)), Math.max(1, Math.round(img.height * scale)));

const kept = new Map<string, number>();
const count = (row: string, kernel: ResizeKernel): void => void kept.set(`${row} ${kernel}`, (kept.get(`${row} ${kernel}`) ?? 0) + 1);
let photos = 0;
let mixed = 0;
for (const file of files) {
  const img = await decodeImage(readFileSync(file), { maxPixels: 50_000_000 }).catch(() => undefined);
  if (!img || Math.min(img.width, img.height) < 224) continue;
  const reference = await topOf(img);
  if (reference.p < SURE) continue;
  photos++;
  const rows: Array<[string, RgbImage]> = [];
  for (const side of SIDES_PX) rows.push([`${side} px`, await copyOf(img, side / Math.max(img.width, img.height))]);
  const short = MIXED_SHORT_PX / Math.min(img.width, img.height);
  if (Math.max(img.width, img.height) * short >= 260) {
    mixed++;
    rows.push([`short side ${MIXED_SHORT_PX} px`, await copyOf(img, short)]);
  }
  for (const [row, copy] of rows)
    for (const kernel of KERNELS)
      if ((await topOf(await resizeRgb(copy, 224, 224, { fit: 'fill', kernel }))).index === reference.index) count(row, kernel);
}
console.log(`${photos} photos the classifier is sure of (p ≥ ${SURE}) at full size; ${mixed} of them wide enough for the last row`);
console.log('copy | keeps its class: bilinear | bicubic');
for (const row of [...SIDES_PX.map((s) => `${s} px`), `short side ${MIXED_SHORT_PX} px`])
  console.log(`${row} | ${kept.get(`${row} linear`) ?? 0} | ${kept.get(`${row} cubic`) ?? 0}`);
await engine.dispose();
