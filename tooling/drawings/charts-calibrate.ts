// `npx tsx tooling/drawings/charts-calibrate.ts`: how the chart references (models/drawings/chart-references.json)
// name charts and what else they would name, at several thresholds (docs/analysis.md "Charts"):
//   - charts: matplotlib charts of another seed than the references (.cache/charts/calibration,
//     `render.py .cache/charts/calibration 220 2`) and gnuplot charts (.cache/charts/gnuplot,
//     `bash tooling/drawings/charts/gnuplot.sh .cache/charts/gnuplot`), rated drawings or not;
//   - non-charts: the held-out part of Open Clip Art outside the eval:unseen sample (the work files
//     of tooling/drawings/embed.ts, colour and line art), where the pipeline would vote (rated
//     clip art or line drawings).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DRAWING_TABLE, drawingVotes } from '../../src-main/analysis/drawings';
import { CHART_TABLE } from '../../src-main/analysis/drawings/chart-table';
import { chartVote, type ChartVote } from '../../src-main/analysis/drawings/charts';
import { classifyImageType, photoProbability } from '../../src-main/analysis/image-type';
import { imageTypeEvidence } from '../../src-main/analysis/pixel-evidence';
import { analysisView } from '../analysis-view';
import { InferenceEngine, loadManifest, resizeRgb } from '../../src-main/inference';
import { decodeImage } from '../../src-main/inference/image';
import { evalSample, splitOf } from '../../test/eval/openclipart';
import { DEFAULT_WORK_FILE, featuresOf, LINE_ART_WORK_FILE, readWorkFile } from './embed';
import { CHART_KIND_WORDS } from '../../src-main/analysis/drawings/charts';
import { kindOfFile } from './charts-table';
import { acceptedChart, CHART_RULE } from '../../src-main/analysis/rules';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const modelsDir = join(repoRoot, 'models');
const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });

interface Scored {
  name: string;
  vote: ChartVote;
  /** Best similarity of the drawing vocabulary's neighbours (the rows the pipeline consults). */
  drawing: number;
  /** The pipeline would vote: rated clip art (≥ 2) or a line drawing. */
  drawn: boolean;
  kind?: string;
  /** TextureStats.borderFlat; 1 for the work files' drawings (rendered on white, not measured there). */
  borderFlat: number;
}

/** Images of a folder tree (PNG, JPEG), sorted. */
function imagesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(png|jpe?g)$/i.test(f))
    .sort()
    .map((f) => join(dir, f));
}

async function scoreImages(files: string[], charts: boolean): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const file of files) {
    let img = await decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 50e6 });
    // Wallpapers are large: the analysis's own copies are ≤ 640 px anyway.
    if (img.width * img.height > 4e6)
      img = await resizeRgb(img, Math.round(img.width / 3), Math.round(img.height / 3), { fit: 'fill', kernel: 'linear' });
    const { features, nsfw, pixels } = await analysisView(img, engine);
    const type = classifyImageType(imageTypeEvidence(pixels, nsfw.Drawing, photoProbability(features)));
    const lineDrawing = type.lineDrawingType === 1;
    const votes = drawingVotes(features, DRAWING_TABLE, { lineDrawing });
    out.push({
      name: file,
      vote: chartVote(features, CHART_TABLE, DRAWING_TABLE),
      drawing: Math.max(0, ...votes.map((v) => v.similarity)),
      drawn: lineDrawing || type.clipArtType >= 2,
      borderFlat: pixels.texture.borderFlat,
      kind: charts ? CHART_KIND_WORDS[kindOfFile(basename(file))] : undefined,
    });
  }
  return out;
}

function scoreDrawings(file: string, line: boolean): Scored[] {
  const lines = readWorkFile(file);
  const sample = new Set(evalSample(readWorkFile(DEFAULT_WORK_FILE).map((l) => l.rel)));
  return lines
    .filter((d) => splitOf(d.rel) === 'held-out' && !sample.has(d.rel))
    .map((d) => {
      const f = featuresOf(d);
      const lineDrawing = d.lineDrawingType === 1;
      const votes = drawingVotes(f, DRAWING_TABLE, { lineDrawing });
      return {
        name: `${line ? 'line art ' : ''}${d.rel}`,
        vote: chartVote(f, CHART_TABLE, DRAWING_TABLE),
        drawing: Math.max(0, ...votes.map((v) => v.similarity)),
        drawn: lineDrawing || d.clipArtType >= 2,
        borderFlat: 1,
      };
    });
}

const named = (s: Scored, minSimilarity: number, overDrawings: number): boolean =>
  !!acceptedChart({ ...s.vote, drawingSimilarity: s.drawing, borderFlat: s.borderFlat }, { ...CHART_RULE, minSimilarity, overDrawings });
/** Photos and drawings that are no charts, from Debian packages (not the test fixtures). */
const NON_CHART_DIRS = ['/usr/share/tuxpaint/stamps', '/usr/share/backgrounds/mate', '/usr/share/wallpapers', '/usr/share/games/palapeli'];
const sets: [string, Scored[]][] = await Promise.all([
  ['matplotlib, seed 2', await scoreImages(imagesUnder(join(repoRoot, '.cache/charts/calibration')), true)],
  ['gnuplot', await scoreImages(imagesUnder(join(repoRoot, '.cache/charts/gnuplot')), true)],
  ...NON_CHART_DIRS.filter(existsSync).map(async (d) => [d, await scoreImages(imagesUnder(d), false)] as [string, Scored[]]),
  ['Open Clip Art held-out (colour)', scoreDrawings(DEFAULT_WORK_FILE, false)],
  ['Open Clip Art held-out (line art)', scoreDrawings(LINE_ART_WORK_FILE, true)],
]);
await engine.dispose();
for (const [name, all] of sets)
  for (const drawnToo of [true, false]) {
    const drawn = all.filter((x) => x.drawn === drawnToo);
    console.log(`${name}: ${all.length} images, ${drawn.length} ${drawnToo ? 'rated drawings' : 'rated photos'}`);
    for (const minSim of [0.65, 0.7, 0.75, 0.8])
      for (const margin of [0, 0.05]) {
        const hits = drawn.filter((x) => named(x, minSim, margin));
        const kindRight = hits.filter((x) => x.kind && x.vote.kind === x.kind).length;
        const kinds = [0.5, 0.75, 0.9].map((share) => {
          const said = hits.filter((x) => x.vote.kindShare >= share);
          return `share ≥ ${share}: ${said.filter((x) => x.vote.kind === x.kind).length}/${said.length}`;
        });
        console.log(
          `  similarity ≥ ${minSim}, ≥ drawings' + ${margin}: named chart ${hits.length}/${drawn.length}` +
            (hits.some((x) => x.kind) ? `, kind right ${kindRight}/${hits.length} (${kinds.join(', ')})` : '') +
            (!hits.some((x) => x.kind) && hits.length
              ? `: ${hits
                  .slice(0, 6)
                  .map((x) => x.name)
                  .join(', ')}`
              : ''),
        );
      }
  }
