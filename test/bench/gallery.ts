// `npm run bench -- gallery`: calibration and speed of the person/place galleries.
//   1. faces: genuine vs impostor cosine of faceres descriptors of every fixture face;
//   2. places: same-scene (augmented) vs different-image cosine of place descriptors;
//   3. speed: a 10 000-person gallery scanned per face (JS loop and ONNX MatMul).
// `-- --write-centre` also regenerates src-main/analysis/gallery/place-centre.generated.ts;
// `-- --write-golden` only regenerates test/main/analysis/gallery/golden-descriptors.ts.
// Figures go to docs/benchmarks.md "Galleries" and docs/galleries.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectFacesInImage, selectorPlan } from '../../src-main/analysis/faces';
import {
  bestEntries,
  centred,
  CONTENT_PLACE_NET,
  cosine,
  describeFace,
  describePlace,
  encodeVector,
  GalleryIndex,
  ORT_SCAN_MIN_ROWS,
  PERSON_MATCH,
  PLACE_MATCH,
  RESCORE_ROWS,
  type PlaceNet,
} from '../../src-main/analysis/gallery/index';
import { CLASSIFIER_PLACE_NET } from '../helpers/place-nets';
import { cropRgb, InferenceEngine, l2Normalize, loadManifest, resizeRgb, type RgbImage } from '../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../src-main/intake';
import { fixture, repoRoot } from '../helpers/paths';

interface FixtureTruth {
  file: string;
  truth: { faces: { left: number; top: number; width: number; height: number; name?: string }[] };
}

const modelsDir = join(repoRoot, 'models');
const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
const loader = createImageLoader(intakeOptions('desktop'));
const manifest = JSON.parse(readFileSync(fixture('manifest.json'), 'utf8')) as FixtureTruth[];
const load = async (file: string): Promise<RgbImage> => (await loader.load(fixture(file))).image;

const stats = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): string => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(3);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const sd = Math.sqrt(s.reduce((a, b) => a + (b - mean) ** 2, 0) / s.length);
  return `n=${s.length} mean ${mean.toFixed(3)} sd ${sd.toFixed(3)} min ${q(0)} p5 ${q(0.05)} median ${q(0.5)} p95 ${q(0.95)} p99 ${q(0.99)} max ${q(1)}`;
};

function boxIou(a: { left: number; top: number; width: number; height: number }, b: typeof a): number {
  const x = Math.max(0, Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left));
  const y = Math.max(0, Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top));
  return (x * y) / (a.width * a.height + b.width * b.height - x * y);
}

async function faces(): Promise<Float32Array[]> {
  const runner = engine;
  const found: { id: string; file: string; v: Float32Array }[] = [];
  for (const m of manifest.filter((x) => x.truth.faces.length > 0)) {
    const img = await load(m.file);
    const dets = await detectFacesInImage(img, { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']), skipAttributes: true }, runner);
    for (const [i, f] of dets.entries()) {
      const d = await describeFace(img, f.box, runner);
      if (!d) continue;
      // Identity from the ground truth box it overlaps; unnamed faces are distinct people.
      const t = m.truth.faces.find((tf) => boxIou(tf, f.box) > 0.3);
      found.push({ id: t?.name ?? `${m.file}#${i}`, file: m.file, v: d.vector });
    }
  }
  const genuine: number[] = [];
  const impostor: number[] = [];
  const lines: string[] = [];
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const s = cosine(found[i]!.v, found[j]!.v);
      (found[i]!.id === found[j]!.id ? genuine : impostor).push(s);
      if (found[i]!.id === found[j]!.id || s >= PERSON_MATCH.minScore - 0.05)
        lines.push(`  ${s.toFixed(3)}  ${found[i]!.id} (${found[i]!.file}) ~ ${found[j]!.id} (${found[j]!.file})`);
    }
  }
  console.log(`faces: ${found.length} fixture faces described`);
  console.log(`  genuine  ${stats(genuine)}`);
  console.log(`  impostor ${stats(impostor)}`);
  console.log(`  threshold ${PERSON_MATCH.minScore}: impostors at or above: ${impostor.filter((s) => s >= PERSON_MATCH.minScore).length}`);
  console.log(`  genuine pairs and close impostors:\n${lines.join('\n')}`);
  return found.map((f) => f.v);
}

// Deterministic LCG so every run measures the same augmentations.
let seed = 12345;
const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

/** A crop keeping 55–90 % of the area, rescaled 0.5–1.5×, per-channel gains ±20 %, gamma 0.7–1.3. */
async function augment(img: RgbImage): Promise<RgbImage> {
  const area = 0.55 + 0.35 * rnd();
  const w = Math.min(img.width, Math.round(img.width * Math.sqrt(area) * (0.85 + 0.3 * rnd())));
  const h = Math.min(img.height, Math.round((img.width * img.height * area) / w));
  const crop = cropRgb(img, { left: rnd() * (img.width - w), top: rnd() * (img.height - h), width: w, height: h });
  const scale = 0.5 + rnd();
  const r = await resizeRgb(crop, Math.max(32, Math.round(w * scale)), Math.max(32, Math.round(h * scale)));
  const gains = [0.8 + 0.4 * rnd(), 0.8 + 0.4 * rnd(), 0.8 + 0.4 * rnd()];
  const gamma = 0.7 + 0.6 * rnd();
  const out = new Uint8Array(r.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.round(255 * (r.data[i]! / 255) ** gamma * gains[i % 3]!));
  return { ...r, data: out };
}

/** Place networks measured side by side; the first is the shipped one (the centre file is its). */
const PLACE_NETS: ReadonlyArray<[string, PlaceNet]> = [
  ['content net (shipped)', CONTENT_PLACE_NET],
  ['ImageNet classifier', CLASSIFIER_PLACE_NET],
];

async function places(writeCentre: boolean): Promise<void> {
  for (const [name, net] of PLACE_NETS) await placesBy(name, net, writeCentre && net === CONTENT_PLACE_NET);
}

async function placesBy(netName: string, net: PlaceNet, writeCentre: boolean): Promise<void> {
  const run = engine;
  const items: { file: string; original: boolean; v: Float32Array }[] = [];
  // The same augmentations for every network.
  seed = 12345;
  for (const m of manifest) {
    const img = await load(m.file);
    items.push({ file: m.file, original: true, v: (await describePlace(img, run, undefined, net)).vector });
    for (let k = 0; k < 3; k++)
      items.push({ file: m.file, original: false, v: (await describePlace(await augment(img), run, undefined, net)).vector });
  }
  const originals = items.filter((i) => i.original);
  const mean = (vs: Float32Array[]): Float32Array => {
    const out = new Float32Array(vs[0]!.length);
    for (const v of vs) for (let i = 0; i < v.length; i++) out[i]! += v[i]! / vs.length;
    return out;
  };
  if (writeCentre) {
    const file = join(repoRoot, 'src-main', 'analysis', 'gallery', 'place-centre.generated.ts');
    writeFileSync(
      file,
      `// Generated by \`npx tsx test/bench/gallery.ts --write-centre\`: the mean pooled place descriptor of the\n` +
        `// ${originals.length} fixture images (whole images, no augmentation), little-endian float32, base64.\n` +
        `export const PLACE_CENTRE_IMAGES = ${originals.length};\nexport const PLACE_CENTRE_BASE64 =\n  '${encodeVector(mean(originals.map((o) => o.v)))}';\n`,
    );
    console.log(`places: wrote ${file}`);
  }
  const photos = new Set(manifest.filter((m) => !/clipart|line_drawing|text_bw/.test(m.file)).map((m) => m.file));
  const modes =
    net === CONTENT_PLACE_NET
      ? (['raw', 'centred (leave-one-out mean)', 'centred (shipped mean)'] as const)
      : (['raw', 'centred (leave-one-out mean)'] as const);
  for (const mode of modes) {
    const genuine: number[] = [];
    const impostor: number[] = [];
    const photoImpostor: number[] = [];
    const colosseum: number[] = [];
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i]!;
        const b = items[j]!;
        let s: number;
        if (mode === 'raw') s = cosine(a.v, b.v);
        else {
          // Leave-one-out: the centre never includes either image of the pair (a held-out place).
          const c =
            mode === 'centred (shipped mean)'
              ? undefined
              : mean(originals.filter((o) => o.file !== a.file && o.file !== b.file).map((o) => o.v));
          s = cosine(centred(a.v, c), centred(b.v, c));
        }
        if (a.file === b.file) {
          genuine.push(s);
          if (a.file === 'colosseum.jpg') colosseum.push(s);
        } else {
          impostor.push(s);
          if (photos.has(a.file) && photos.has(b.file)) photoImpostor.push(s);
        }
      }
    }
    console.log(`places, ${netName}, ${mode}:`);
    console.log(`  genuine        ${stats(genuine)}`);
    console.log(`  colosseum      ${stats(colosseum)}`);
    console.log(`  impostor       ${stats(impostor)}`);
    console.log(`  photo impostor ${stats(photoImpostor)}`);
    // How the tails meet: genuine pairs kept by a threshold just above every photo impostor, and
    // photo impostors that the shipped threshold would let through.
    const worst = Math.max(...photoImpostor);
    const kept = genuine.filter((g) => g > worst).length;
    const through = photoImpostor.filter((x) => x >= PLACE_MATCH.minScore).length;
    console.log(
      `  genuine above the highest photo impostor (${worst.toFixed(3)}): ${kept}/${genuine.length}; photo impostors ≥ ${PLACE_MATCH.minScore}: ${through}/${photoImpostor.length}`,
    );
  }
  console.log(`  threshold ${PLACE_MATCH.minScore} (centred)`);
}

async function speed(real: Float32Array[]): Promise<void> {
  const dim = 1024;
  const rows = 10_000;
  // Synthetic people near the real descriptors' statistics: a real face plus noise, ReLU, normalised.
  const gallery = Array.from({ length: rows }, (_, i) => {
    const base = real[i % real.length]!;
    const v = new Float32Array(dim);
    for (let j = 0; j < dim; j++) v[j] = Math.max(0, base[j]! + (rnd() - 0.5) * 0.08);
    return { entryId: i + 1, vector: l2Normalize(v) };
  });
  const index = GalleryIndex.build(dim, gallery);
  const queries = real.slice(0, 8);
  const time = async (label: string, f: (q: Float32Array) => unknown): Promise<void> => {
    for (const q of queries) await f(q); // warm-up (and the ONNX session build)
    const t0 = performance.now();
    let n = 0;
    for (let r = 0; r < 25; r++) {
      for (const q of queries) {
        await f(q);
        n++;
      }
    }
    console.log(`  ${label}: ${((performance.now() - t0) / n).toFixed(2)} ms per face`);
  };
  console.log(`speed: ${rows} people × ${dim}-d`);
  await time('JS float32 loop over all rows (reference, not used at this size)', (q) => index.scoreJs(q));
  await time(`int8 ONNX scan + exact rescoring of ${RESCORE_ROWS} rows + top-2 (used ≥ ${ORT_SCAN_MIN_ROWS} rows)`, (q) =>
    index.best(q, 2),
  );
  let maxDiff = 0;
  let sameBest = 0;
  for (const q of queries) {
    const exact = index.scoreJs(q);
    const int8 = await index.scoreInt8(q);
    for (let i = 0; i < rows; i++) maxDiff = Math.max(maxDiff, Math.abs(exact[i]! - int8[i]!));
    const a = bestEntries(exact, index.entryIds, 2);
    const b = await index.best(q, 2);
    if (a[0]!.entryId === b[0]!.entryId && a[1]!.entryId === b[1]!.entryId && a[0]!.score === b[0]!.score) sameBest++;
  }
  console.log(`  int8 vs float32 max |Δcosine| ${maxDiff.toFixed(4)}; exact top-2 recovered for ${sameBest}/${queries.length} queries`);
  await index.dispose();
}

// `--write-golden`: the descriptors golden.test.ts compares against (run after a deliberate recipe change).
async function writeGolden(): Promise<void> {
  const runner = engine;
  const portrait = await load('obama_portrait.jpg');
  const [face] = await detectFacesInImage(
    portrait,
    { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']), skipAttributes: true },
    runner,
  );
  const person = await describeFace(portrait, face!.box, runner);
  const place = await describePlace(await load('colosseum.jpg'), engine);
  const file = join(repoRoot, 'test', 'main', 'analysis', 'gallery', 'golden-descriptors.ts');
  writeFileSync(
    file,
    `// Generated by \`npx tsx test/bench/gallery.ts --write-golden\`: descriptors of obama_portrait.jpg (person)\n` +
      `// and colosseum.jpg (place) under the current recipes, little-endian float32, base64.\n` +
      `export const GOLDEN_PERSON =\n  '${encodeVector(person!.vector)}';\nexport const GOLDEN_PLACE =\n  '${encodeVector(place.vector)}';\n`,
  );
  console.log(`golden: wrote ${file}`);
}

if (process.argv.includes('--write-golden')) {
  await writeGolden();
  await loader.close();
  await engine.dispose();
  process.exit(0);
}
const real = await faces();
await places(process.argv.includes('--write-centre'));
await speed(real);
await loader.close();
await engine.dispose();
