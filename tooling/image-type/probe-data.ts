// `npx tsx tooling/image-type/probe-data.ts`: the images the photo probe (models/image-type/
// photo-probe.json) learns and is calibrated on, with what the analysis sees in each: the
// classifier's pooled features and the pixel evidence of the clip-art score. Writes a JSON-lines
// work file (default .cache/image-type/probe-data.jsonl, not committed) that
// `npx tsx tooling/image-type/photo-probe.ts` reads. Resumes: rows already in the file are skipped.
//
// Roles (none of these images is in an eval set: eval:unseen's labelled stamps and Open Clip Art
// sample, and the fixtures of eval:analyze, are left out):
//   train      Tux Paint stamps outside eval:unseen's labelled set, as PNG, JPEG q85 and on a
//              white canvas (30 % of its side) as JPEG q85, labelled photo or drawing by the
//              lossless cut-out test on their PNG (cutoutPhoto 1: a textured figure with a photo's
//              palette; 0 with clip art ≥ 2: drawn), the rest left out, and each also on one of
//              test/eval/backdrops.ts's BACKDROPS (black, greys, a grey sweep, muted colours) as a
//              320 px JPEG q85 (trained on white pages only, the probe read a photo on black as a
//              drawing); the people crops of
//              test/fixtures/people (photos); every 4th Open Clip Art reference drawing as JPEG q80.
//              The reference drawings as PNG and as line art come from the drawing vocabulary's
//              work files (tooling/drawings/embed.ts), read by photo-probe.ts.
//   calibrate  Open Clip Art held-out drawings outside eval:unseen's sample, as PNG and JPEG q80;
//              the face-free fixtures (test/fixtures/negatives) whose subject is a photograph
//              (photo) or a cartoon, chart, pattern or typeset page (drawing).
// Needs the Debian packages tuxpaint-stamps-default and openclipart-svg.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { classifyImageType, cutoutPhoto, type ClipArtEvidence, type ImageTypeEvidence } from '../../src-main/analysis/image-type/classify';
import { imageTypeEvidence } from '../../src-main/analysis/pixel-evidence';
import { InferenceEngine, loadManifest } from '../../src-main/inference';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';
import { analysisView } from '../analysis-view';
import { arg } from '../convert/build';
import { readJsonLines } from '../json-lines';
import { BACKDROPS, onBackdrop } from '../../test/eval/backdrops';
import { negativeEntries, negativeLabel } from '../../test/eval/fixture-labels';
import { evalSample, OPENCLIPART_DIR, renderDrawingSvg, splitOf, svgFiles } from '../../test/eval/openclipart';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const PROBE_WORK_FILE = join(repoRoot, '.cache/image-type/probe-data.jsonl');
const TUXPAINT_DIR = process.env.PICSCAN_TUXPAINT_STAMPS ?? '/usr/share/tuxpaint/stamps';
/** Side share of a stamp on its white canvas (as eval:unseen's product-shot variant). */
const CANVAS_SHARE = 0.3;
/** Every how many-th reference drawing is also coded as JPEG for training. */
const JPEG_REFERENCE_STRIDE = 4;

export type Role = 'train' | 'calibrate';
export type Label = 'photo' | 'drawing';

/** One line of the work file. */
export interface ProbeRow {
  set: string;
  file: string;
  variant: string;
  role: Role;
  label: Label;
  /** The 1 280 pooled features, uint8 steps, base64. */
  features: string;
  /** The image-type evidence the clip-art score reads (the probe's own term left out). */
  evidence: ClipArtEvidence;
  clipArtType: number;
}

/** Reads a work file. */
export function readProbeRows(file = PROBE_WORK_FILE): ProbeRow[] {
  const rows = readJsonLines<ProbeRow>(file);
  // Rows written before the evidence held the level span would score NaN.
  if (rows.some((r) => typeof r.evidence.levelSpan !== 'number' || typeof r.evidence.brightness !== 'number'))
    throw new Error(`${file} was written by an older build (no levelSpan or brightness in its evidence): delete it and run this again.`);
  return rows;
}

const walk = (dir: string, ext: RegExp): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? walk(p, ext) : ext.test(n) ? [p] : [];
    });

const rgbSharp = (img: RgbImage): sharp.Sharp => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
const decode = (bytes: Uint8Array): Promise<RgbImage> => decodeImage(bytes, { maxPixels: 100e6 });
const jpeg = async (img: RgbImage, quality: number): Promise<RgbImage> =>
  decode(new Uint8Array(await rgbSharp(img).jpeg({ quality }).toBuffer()));

async function onCanvas(img: RgbImage): Promise<RgbImage> {
  const side = Math.round(Math.max(img.width, img.height) / CANVAS_SHARE);
  const png = await sharp({ create: { width: side, height: side, channels: 3, background: '#ffffff' } })
    .composite([
      {
        input: Buffer.from(img.data),
        raw: { width: img.width, height: img.height, channels: 3 },
        left: Math.round(side * 0.35),
        top: Math.round(side * 0.4),
      },
    ])
    .png()
    .toBuffer();
  return decode(new Uint8Array(png));
}

/** What the probe learns from (pooled features) and the image-type evidence without the probe's own term. */
async function probeEvidence(img: RgbImage, engine: InferenceEngine): Promise<{ features: Float32Array; evidence: ImageTypeEvidence }> {
  const { features, nsfw, pixels } = await analysisView(img, engine);
  return { features, evidence: imageTypeEvidence(pixels, nsfw.Drawing) };
}

async function main(): Promise<void> {
  const out = resolve(arg('--out') ?? PROBE_WORK_FILE);
  mkdirSync(dirname(out), { recursive: true });
  const done = new Set(readProbeRows(out).map((r) => `${r.set}|${r.file}|${r.variant}`));
  const modelsDir = join(repoRoot, 'models');
  const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
  let added = 0;
  const add = async (set: string, file: string, variant: string, role: Role, label: Label, img: RgbImage): Promise<void> => {
    if (done.has(`${set}|${file}|${variant}`)) return;
    const { features, evidence } = await probeEvidence(img, engine);
    const { texture, isBW, drawingProb, textLines, levelSpan, brightness } = evidence;
    const row: ProbeRow = {
      set,
      file,
      variant,
      role,
      label,
      features: Buffer.from(Uint8Array.from(features)).toString('base64'),
      evidence: { texture, isBW, drawingProb, textLines, levelSpan, brightness },
      clipArtType: classifyImageType(evidence).clipArtType,
    };
    appendFileSync(out, `${JSON.stringify(row)}\n`);
    if (++added % 200 === 0) process.stderr.write(`${added} rows\n`);
  };

  // Tux Paint stamps outside eval:unseen's labelled set.
  const labelled = JSON.parse(readFileSync(join(repoRoot, 'test/eval/unseen-photos.json'), 'utf8')) as {
    packages: Record<string, { photos: Record<string, string[]> }>;
  };
  const evalStamps = new Set(Object.keys(labelled.packages['tuxpaint-stamps-default']!.photos));
  let stampIndex = 0;
  for (const path of walk(TUXPAINT_DIR, /\.png$/)) {
    const rel = relative(TUXPAINT_DIR, path);
    if (evalStamps.has(rel)) continue;
    const png = await decode(new Uint8Array(readFileSync(path)));
    const { evidence } = await probeEvidence(png, engine);
    const cut = cutoutPhoto(evidence.texture);
    const label: Label | undefined = cut >= 1 ? 'photo' : cut <= 0 && classifyImageType(evidence).clipArtType >= 2 ? 'drawing' : undefined;
    if (!label) continue;
    await add('tuxpaint', rel, 'png', 'train', label, png);
    await add('tuxpaint', rel, 'jpeg85', 'train', label, await jpeg(png, 85));
    await add('tuxpaint', rel, 'canvas-jpeg85', 'train', label, await jpeg(await onCanvas(png), 85));
    await add('tuxpaint', rel, 'backdrop-jpeg85', 'train', label, await onBackdrop(path, BACKDROPS[stampIndex++ % BACKDROPS.length]!));
  }

  // The people crops (photos).
  const people = join(repoRoot, 'test/fixtures/people');
  for (const path of walk(people, /\.(jpe?g|png)$/i))
    await add('people', relative(people, path), 'file', 'train', 'photo', await decode(new Uint8Array(readFileSync(path))));

  // Open Clip Art: reference drawings as JPEG (training), held-out drawings outside the eval sample (calibration).
  const files = svgFiles(OPENCLIPART_DIR);
  const sample = new Set(evalSample(files));
  const render = async (rel: string): Promise<RgbImage | undefined> => {
    try {
      return await renderDrawingSvg(new Uint8Array(readFileSync(join(OPENCLIPART_DIR, rel))));
    } catch {
      return undefined; // not renderable by librsvg: eval:unseen and the vocabulary skip it too
    }
  };
  const reference = files.filter((f) => splitOf(f) === 'reference');
  for (const [i, rel] of reference.entries()) {
    if (i % JPEG_REFERENCE_STRIDE) continue;
    const img = await render(rel);
    if (img) await add('openclipart', rel, 'jpeg80', 'train', 'drawing', await jpeg(img, 80));
  }
  for (const rel of files.filter((f) => splitOf(f) === 'held-out' && !sample.has(f))) {
    const img = await render(rel);
    if (!img) continue;
    await add('openclipart', rel, 'png', 'calibrate', 'drawing', img);
    await add('openclipart', rel, 'jpeg80', 'calibrate', 'drawing', await jpeg(img, 80));
  }

  // The face-free fixtures with a clear photo or drawing subject.
  const negatives = join(repoRoot, 'test/fixtures/negatives');
  for (const e of negativeEntries()) {
    const label = negativeLabel(e);
    if (label)
      await add('negatives', e.file, 'file', 'calibrate', label, await decode(new Uint8Array(readFileSync(join(negatives, e.file)))));
  }
  process.stderr.write(`${added} rows added to ${out}\n`);
  await engine.dispose();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
