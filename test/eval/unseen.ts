// `npm run eval:unseen`: the pixel rules (ImageType, text) and the object tags on images the rules
// were not written on, from Debian packages rather than the shared fixtures:
//   - photos: scikit-image's sample images (python3-skimage) and matplotlib's (python-matplotlib-data),
//     plus greyscale copies of the colour ones and of the fixtures' colour photos;
//   - drawings: an evenly spread sample of Open Clip Art (openclipart-svg), rendered at 256 px by
//     sharp, as PNG and as JPEG q80 and q70.
// Install the data with `apt-get install python3-skimage python-matplotlib-data openclipart-svg`
// (or point PICSCAN_SKIMAGE_DATA / PICSCAN_MPL_DATA / PICSCAN_OPENCLIPART at extracted copies).
// Prints the figures quoted in docs/analysis.md; tooling, not a CI test (the data is not in CI).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { analyzePixels, COCO80 } from '../../src-main/analysis';
import type { VisualFeature } from '../../src-main/shared/spec';
import { labelWord } from '../../src-main/analysis/rules';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';
import { fixture } from '../helpers/paths';
import { createEngine, manifest, runnerOf } from '../main/analysis/fixtures';

const dirs = {
  skimage: process.env.PICSCAN_SKIMAGE_DATA ?? '/usr/lib/python3/dist-packages/skimage/data',
  mpl: process.env.PICSCAN_MPL_DATA ?? '/usr/share/matplotlib/mpl-data/sample_data',
  openclipart: process.env.PICSCAN_OPENCLIPART ?? '/usr/share/openclipart/svg',
};
for (const [name, dir] of Object.entries(dirs)) {
  if (!existsSync(dir)) {
    console.error(`${name}: ${dir} not found (apt-get install python3-skimage python-matplotlib-data openclipart-svg)`);
    process.exit(2);
  }
}

/** Sample photos that are not fixtures (the fixtures came from the same packages). */
const PHOTOS = [
  'brick.png',
  'cell.png',
  'clock_motion.png',
  'coins.png',
  'grass.png',
  'gravel.png',
  'hubble_deep_field.jpg',
  'ihc.png',
  'moon.png',
  'motorcycle_left.png',
  'page.png',
  'retina.jpg',
];
/** Of those, the colour ones also go in as greyscale copies. */
const COLOUR_PHOTOS = ['hubble_deep_field.jpg', 'ihc.png', 'motorcycle_left.png', 'retina.jpg'];
/** Graphics among the sample images (logos). */
const GRAPHICS = [join(dirs.skimage, 'logo.png'), join(dirs.mpl, 'logo2.png')];
const TEXTURES = ['brick.png', 'grass.png', 'gravel.png'];
/** Open Clip Art drawings the fixtures were made from, left out. */
const FIXTURE_SOURCES = ['dancer_sketch_erich_schu_01.svg', 'Minduka_Present_Blue_Pack'];
const CLIP_ART_SAMPLE = 240;

const engine = createEngine();
const runModel = runnerOf(engine);
const features = new Set<VisualFeature>(['ImageType', 'Tags', 'Color']);
const objectWords = new Set<string>([...COCO80, ...COCO80.map(labelWord)]);

interface Rated {
  name: string;
  clipArtType: number;
  lineDrawing: boolean;
  text: number;
  objects: string[];
}

async function rate(name: string, img: RgbImage): Promise<Rated> {
  const { data } = await analyzePixels(img, features, new Set(), { runModel });
  const tags = data.tags ?? [];
  return {
    name,
    clipArtType: data.imageType!.clipArtType,
    lineDrawing: data.imageType!.lineDrawingType === 1,
    text: tags.find((t) => t.name === 'text')?.confidence ?? 0,
    objects: tags.filter((t) => t.confidence >= 0.5 && objectWords.has(t.name)).map((t) => `${t.name} ${t.confidence.toFixed(2)}`),
  };
}

const decode = (bytes: Uint8Array): Promise<RgbImage> => decodeImage(bytes, { maxPixels: 100e6 });
const encode = async (img: RgbImage, format: 'png' | 'grey' | 'jpeg80' | 'jpeg70'): Promise<Uint8Array> => {
  let s = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
  if (format === 'grey') s = s.greyscale();
  const out = format.startsWith('jpeg') ? s.jpeg({ quality: format === 'jpeg80' ? 80 : 70 }) : s.png();
  return new Uint8Array(await out.toBuffer());
};

// Photos.
const photos: Rated[] = [];
for (const file of PHOTOS) {
  const img = await decode(readFileSync(join(dirs.skimage, file)));
  photos.push(await rate(file, img));
  if (COLOUR_PHOTOS.includes(file)) photos.push(await rate(`grey ${file}`, await decode(await encode(img, 'grey'))));
}
for (const m of manifest.filter((f) => !f.truth.isBW && f.truth.clipArt === false)) {
  const img = await decode(readFileSync(fixture(m.file)));
  photos.push(await rate(`grey ${m.file}`, await decode(await encode(img, 'grey'))));
}
const graphics = await Promise.all(GRAPHICS.map(async (f) => rate(relative(join(f, '..', '..'), f), await decode(readFileSync(f)))));

// Drawings: every k-th SVG in path order, so the sample spreads over all sections.
function svgFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'duplicates' ? [] : svgFiles(path);
      return name.endsWith('.svg') && !FIXTURE_SOURCES.some((s) => name.includes(s)) ? [path] : [];
    });
}
const all = svgFiles(dirs.openclipart);
const step = all.length / CLIP_ART_SAMPLE;
const sample = Array.from({ length: CLIP_ART_SAMPLE }, (_, i) => all[Math.floor(i * step)]!);
const drawings: Record<'png' | 'jpeg80' | 'jpeg70', Rated[]> = { png: [], jpeg80: [], jpeg70: [] };
let unrenderable = 0;
for (const path of sample) {
  let img: RgbImage;
  try {
    const svg = readFileSync(path);
    const meta = await sharp(svg).metadata();
    const density = Math.min(2400, (72 * 256) / Math.max(meta.width ?? 256, meta.height ?? 256));
    const png = await sharp(svg, { density }).resize(256, 256, { fit: 'inside' }).flatten({ background: '#ffffff' }).png().toBuffer();
    img = await decode(new Uint8Array(png));
  } catch {
    unrenderable++;
    continue;
  }
  const name = relative(dirs.openclipart, path);
  drawings.png.push(await rate(name, img));
  drawings.jpeg80.push(await rate(name, await decode(await encode(img, 'jpeg80'))));
  drawings.jpeg70.push(await rate(name, await decode(await encode(img, 'jpeg70'))));
}

const count = (xs: Rated[], f: (r: Rated) => boolean): string => `${xs.filter(f).length} / ${xs.length}`;
console.log(
  `photos (${photos.length}): clip art (≥ 2) ${count(photos, (r) => r.clipArtType >= 2)}, ambiguous (1) ${count(photos, (r) => r.clipArtType === 1)}, line drawing ${count(photos, (r) => r.lineDrawing)}`,
);
for (const r of photos.filter((p) => p.clipArtType >= 1 || p.lineDrawing))
  console.log(`  ${r.name}: clipArtType ${r.clipArtType}${r.lineDrawing ? ', line drawing' : ''}`);
console.log(`graphics: ${graphics.map((r) => `${r.name} clipArtType ${r.clipArtType}`).join('; ')}`);
console.log(
  `text: page.png ${photos.find((p) => p.name === 'page.png')!.text.toFixed(2)} (a photographed book page); textures ${TEXTURES.map((t) => `${t} ${photos.find((p) => p.name === t)!.text.toFixed(2)}`).join(', ')}`,
);
console.log(`\nOpen Clip Art sample: ${sample.length} of ${all.length} SVGs, ${unrenderable} not renderable`);
for (const [format, rated] of Object.entries(drawings)) {
  console.log(
    `  ${format}: clip art (≥ 2) ${count(rated, (r) => r.clipArtType >= 2)}, line drawing ${count(rated, (r) => r.lineDrawing)}, with an object tag ≥ 0.5 ${count(rated, (r) => r.objects.length > 0)}`,
  );
}
console.log('  object tags ≥ 0.5 on the PNG drawings (judge by the file name):');
for (const r of drawings.png.filter((d) => d.objects.length)) console.log(`    ${r.name}: ${r.objects.join(', ')}`);
await engine.dispose();
