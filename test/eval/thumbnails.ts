// `npx tsx test/eval/thumbnails.ts`: the image type and the captions on thumbnails
// (docs/benchmarks.md "Thumbnails"). URL lists often point at thumbnails, shrunk by a server's
// resampler and often JPEG-coded; this rates copies of labelled images at a few longer sides:
//   - the repository's photos and drawings (fixture-labels.ts: test/fixtures/negatives by their
//     manifest subject, test/fixtures/scenes) of at least MIN_SOURCE_PX, at full size and shrunk;
//   - the Open Clip Art evaluation sample (openclipart.ts: held out from the drawing vocabulary and
//     the photo probe), rendered at 256 px as eval:unseen does, and shrunk.
// Each copy is made as thumbnail-copy.ts says, as PNG and as JPEG. A drawing
// counts as rated drawn with clip art ≥ 2 or a line drawing; a photo so rated is a false rating.
// Captions "a page of text" are counted on the text fixtures (right) and on every other copy
// (wrong; those are listed by name at the end).
// Needs the Debian package openclipart-svg for the second part (skipped without it).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { analyzePixels } from '../../src-main/analysis';
import { TEXT_PHRASE } from '../../src-main/analysis/rules/caption';
import type { AnalyzeData, VisualFeature } from '../../src-main/shared/spec';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';
import { createEngine, runnerOf } from '../main/analysis/fixtures';
import { GENERIC_CAPTIONS } from './analyze-metrics';
import { labelledFixtures, negativeEntries, type MediumLabel } from './fixture-labels';
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
  /** Pages of text (the text fixtures) and how many were captioned so. */
  pages: number;
  pagesRead: number;
  /** Other images captioned a page of text. */
  falsePages: number;
}
const tallies = new Map<string, Tally>();
/** Which copies were captioned a page of text though none is. */
const falsePageNames: string[] = [];
const tally = (row: string): Tally => {
  let t = tallies.get(row);
  if (!t)
    tallies.set(row, (t = { drawings: 0, drawnDrawings: 0, photos: 0, drawnPhotos: 0, generic: 0, pages: 0, pagesRead: 0, falsePages: 0 }));
  return t;
};

async function rate(row: string, img: RgbImage, label: MediumLabel, page: boolean, name = ''): Promise<void> {
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
  const caption = description.captions[0]!.text;
  if (GENERIC_CAPTIONS.has(caption)) t.generic++;
  const readAsPage = caption === TEXT_PHRASE;
  if (page) {
    t.pages++;
    if (readAsPage) t.pagesRead++;
  } else if (readAsPage) {
    t.falsePages++;
    falsePageNames.push(`${row}: ${name}`);
  }
}

let sources = 0;
async function rateSizes(part: string, name: string, img: RgbImage, label: MediumLabel, page = false): Promise<void> {
  if (++sources % 50 === 0) process.stderr.write(`${sources} images rated at every size\n`);
  await rate(`${part} full size`, img, label, page, name);
  for (const side of SIDES_PX)
    for (const format of ['png', 'jpeg'] as const)
      await rate(`${part} ${side} px ${format}`, await thumbnailCopy(img, side, format), label, page, name);
}

/** The text fixtures (printed and handwritten pages): the caption should say a page of text. */
const textPages = new Set(
  negativeEntries()
    .filter((e) => e.category.startsWith('text-'))
    .map((e) => e.file),
);
for (const { path, label } of labelledFixtures()) {
  const img = await decode(new Uint8Array(readFileSync(path)));
  if (Math.max(img.width, img.height) >= MIN_SOURCE_PX)
    await rateSizes('fixtures', basename(path), img, label, textPages.has(basename(path)));
}
if (existsSync(OPENCLIPART_DIR)) {
  for (const rel of evalSample(svgFiles(OPENCLIPART_DIR))) {
    const img = await renderDrawingSvg(new Uint8Array(readFileSync(join(OPENCLIPART_DIR, rel)))).catch(() => undefined);
    if (img) await rateSizes('openclipart', rel, img, 'drawing');
  }
} else console.error(`${OPENCLIPART_DIR} not found (apt-get install openclipart-svg): the Open Clip Art rows are skipped`);

console.log(
  'copy | drawings rated drawn | photos rated drawn (false) | generic captions | pages of text captioned so | other images captioned a page of text',
);
for (const [row, t] of tallies)
  console.log(
    `${row} | ${t.drawnDrawings}/${t.drawings} | ${t.photos ? `${t.drawnPhotos}/${t.photos}` : '-'} | ${t.generic}/${t.drawings + t.photos} | ${t.pages ? `${t.pagesRead}/${t.pages}` : '-'} | ${t.falsePages}/${t.drawings + t.photos - t.pages}`,
  );
console.log('captioned a page of text, though none is:');
for (const n of falsePageNames) console.log(`  ${n}`);
await engine.dispose();
