// `npx tsx tooling/drawings/embed.ts`: renders every Open Clip Art drawing (sharp, 256 px on white, as
// `npm run eval:unseen` does) and records what the analysis sees in it: the classifier's top
// classes and pooled features, and the image type (pixel rules, content net, photo probe), with the drawing's
// title, keywords and split. Writes a JSON-lines work file (default .cache/drawings/embed.jsonl,
// not committed) that `npx tsx tooling/drawings/table.ts` and `npx tsx tooling/drawings/calibrate.ts` read. Resumes:
// drawings already in the file are skipped.
//   --style line  render each drawing as line art (lineArtSvg) into .cache/drawings/embed-line.jsonl
//   --out FILE    work file
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyImageType, photoProbability } from '../../src-main/analysis/image-type';
import { imageTypeEvidence } from '../../src-main/analysis/pixel-evidence';
import { InferenceEngine, loadManifest } from '../../src-main/inference';
import type { RgbImage } from '../../src-main/inference/image';
import { analysisView } from '../analysis-view';
import { arg } from '../convert/build';
import { readJsonLines } from '../json-lines';
import {
  lineArtSvg,
  OPENCLIPART_DIR,
  renderDrawingSvg,
  readMeta,
  splitOf,
  svgFiles,
  type DrawingMeta,
  type Split,
} from '../../test/eval/openclipart';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_WORK_FILE = join(repoRoot, '.cache/drawings/embed.jsonl');
/** Work file of the line-art renderings (`--style line`). */
export const LINE_ART_WORK_FILE = join(repoRoot, '.cache/drawings/embed-line.jsonl');

/** One line of the work file. */
export interface EmbeddedDrawing extends DrawingMeta {
  rel: string;
  split: Split;
  /** Top-10 classes: [model output index, probability]. */
  classes: [number, number][];
  /** The 1 280 pooled features, uint8 steps, base64. */
  features: string;
  clipArtType: number;
  lineDrawingType: number;
  colorBins90: number;
}

/** Reads a work file. */
export function readWorkFile(file = DEFAULT_WORK_FILE): EmbeddedDrawing[] {
  return readJsonLines<EmbeddedDrawing>(file);
}

/** The features of a work-file line as numbers. */
export function featuresOf(d: EmbeddedDrawing): Uint8Array {
  return new Uint8Array(Buffer.from(d.features, 'base64'));
}

async function main(): Promise<void> {
  const style = arg('--style') ?? 'colour';
  if (style !== 'colour' && style !== 'line') throw new Error(`--style ${style}: expected colour (default) or line`);
  const lineArt = style === 'line';
  const out = resolve(arg('--out') ?? (lineArt ? LINE_ART_WORK_FILE : DEFAULT_WORK_FILE));
  mkdirSync(dirname(out), { recursive: true });
  const done = new Set(readWorkFile(out).map((d) => d.rel));
  const modelsDir = join(repoRoot, 'models');
  const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
  const files = svgFiles(OPENCLIPART_DIR).filter((f) => !done.has(f));
  let failed = 0;
  const t0 = performance.now();
  for (const [k, rel] of files.entries()) {
    let img: RgbImage;
    try {
      const svg = readFileSync(join(OPENCLIPART_DIR, rel));
      img = await renderDrawingSvg(lineArt ? new Uint8Array(Buffer.from(lineArtSvg(svg.toString('utf8')))) : new Uint8Array(svg));
    } catch {
      failed++;
      continue;
    }
    const { classes, features, nsfw, pixels } = await analysisView(img, engine);
    const type = classifyImageType(imageTypeEvidence(pixels, nsfw.Drawing, photoProbability(features)));
    const line: EmbeddedDrawing = {
      rel,
      split: splitOf(rel),
      ...readMeta(OPENCLIPART_DIR, rel),
      classes: classes.map((c) => [c.index, Math.round(c.p * 1e4) / 1e4]),
      features: Buffer.from(Uint8Array.from(features)).toString('base64'),
      clipArtType: type.clipArtType,
      lineDrawingType: type.lineDrawingType,
      colorBins90: pixels.texture.colorBins90,
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
    if (k % 200 === 0) process.stderr.write(`${k}/${files.length} ${((performance.now() - t0) / (k + 1)).toFixed(0)} ms each\n`);
  }
  process.stderr.write(`${files.length - failed} embedded, ${failed} not renderable\n`);
  await engine.dispose();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
