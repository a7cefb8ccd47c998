// `npx tsx test/eval/thumbnails.ts`: the image type and the captions on thumbnails
// (docs/benchmarks.md "Thumbnails"). URL lists often point at thumbnails, shrunk by a server's
// resampler and often JPEG-coded; this rates copies of labelled images at a few longer sides:
//   - the repository's photos and drawings (fixture-labels.ts: test/fixtures/negatives by their
//     manifest subject, test/fixtures/scenes) of at least MIN_SOURCE_PX, at full size and shrunk;
//   - the Open Clip Art evaluation sample (openclipart.ts: held out from the drawing vocabulary and
//     the photo probe), rendered at 256 px as eval:unseen does, and shrunk.
// Each copy is made as thumbnail-copy.ts says, as PNG and as JPEG. A drawing
// counts as rated drawn with clip art ≥ 2 or a line drawing; a photo so rated is a false rating.
// Needs the Debian package openclipart-svg for the second part (skipped without it).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzePixels } from '../../src-main/analysis';
import type { AnalyzeData, VisualFeature } from '../../src-main/shared/spec';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';
import { createEngine, runnerOf } from '../main/analysis/fixtures';
import { GENERIC_CAPTIONS } from './analyze-metrics';
import { labelledFixtures, type MediumLabel } from './fixture-labels';
import { evalSample, OPENCLIPART_DIR, renderDrawingSvg, svgFiles } from './openclipart';
import { thumbnailCopy } from './thumbnail-copy';

/** Longer sides of the thumbnails, px. */
const SIDES_PX = [160, 96, 64] as const;
/** Sources shorter than this (longer side, px) are left out: their thumbnails would barely shrink. */
const MIN_SOURCE_PX = 300;
const FEATURES = new Set<VisualFeature>(['ImageType', 'Tags', 'Description', 'Color']);

const engine = createEngine();
const runModel = runnerOf(engine);
const decode = (bytes: Uint8Array): Promise<RgbImage> => decodeImage(bytes, { maxPixels: 100e6 });
interface Tally {
  drawings: number;
  drawnDrawings: number;
  photos: number;
  drawnPhotos: number;
  generic: number;
}
const tallies = new Map<string, Tally>();
const tally = (row: string): Tally => {
  let t = tallies.get(row);
  if (!t) tallies.set(row, (t = { drawings: 0, drawnDrawings: 0, photos: 0, drawnPhotos: 0, generic: 0 }));
  return t;
};

async function rate(row: string, img: RgbImage, label: MediumLabel): Promise<void> {
  const { data } = await analyzePixels(img, FEATURES, new Set(), { runModel });
  const { imageType, description } = data as Required<Pick<AnalyzeData, 'imageType' | 'description'>>;
  const drawn = imageType.clipArtType >= 2 || imageType.lineDrawingType === 1;
  const t = tally(row);
  if (label === 'drawing') {
    t.drawings++;
    if (drawn) t.drawnDrawings++;
  } else {
    t.photos++;
    if (drawn) t.drawnPhotos++;
  }
  if (GENERIC_CAPTIONS.has(description.captions[0]!.text)) t.generic++;
}

let sources = 0;
async function rateSizes(part: string, img: RgbImage, label: MediumLabel): Promise<void> {
  if (++sources % 50 === 0) process.stderr.write(`${sources} images rated at every size\n`);
  await rate(`${part} full size`, img, label);
  for (const side of SIDES_PX)
    for (const format of ['png', 'jpeg'] as const)
      await rate(`${part} ${side} px ${format}`, await thumbnailCopy(img, side, format), label);
}

for (const { path, label } of labelledFixtures()) {
  const img = await decode(new Uint8Array(readFileSync(path)));
  if (Math.max(img.width, img.height) >= MIN_SOURCE_PX) await rateSizes('fixtures', img, label);
}
if (existsSync(OPENCLIPART_DIR)) {
  for (const rel of evalSample(svgFiles(OPENCLIPART_DIR))) {
    const img = await renderDrawingSvg(new Uint8Array(readFileSync(join(OPENCLIPART_DIR, rel)))).catch(() => undefined);
    if (img) await rateSizes('openclipart', img, 'drawing');
  }
} else console.error(`${OPENCLIPART_DIR} not found (apt-get install openclipart-svg): the Open Clip Art rows are skipped`);

console.log('copy | drawings rated drawn | photos rated drawn (false) | generic captions');
for (const [row, t] of tallies)
  console.log(
    `${row} | ${t.drawnDrawings}/${t.drawings} | ${t.photos ? `${t.drawnPhotos}/${t.photos}` : '-'} | ${t.generic}/${t.drawings + t.photos}`,
  );
await engine.dispose();
