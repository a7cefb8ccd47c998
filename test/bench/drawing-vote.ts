// `npm run bench -- drawing-vote`: CPU cost of the drawing vocabulary's vote (analysis/drawings):
// the classifier's pooled features of the test drawings (test/fixtures/drawings) projected and
// voted against the table, many times each, as clip art (the colour rows) and as line drawings
// (the line-art rows too), plus the first call (the table decode); then the reference charts' vote
// (analysis/drawings/charts.ts), which runs on every image the classifier sees.
// Figures quoted in docs/analysis.md ("Drawing vocabulary", cost).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { classifyWithFeatures } from '../../src-main/analysis';
import { CHART_TABLE, chartVote, DRAWING_TABLE, drawingVotes } from '../../src-main/analysis/drawings';
import { renderDrawing } from '../helpers/render-drawing';
import { repoRoot } from '../helpers/paths';
import { createEngine, runnerOf } from '../main/analysis/fixtures';

const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 200;
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const engine = createEngine();
const files = readdirSync(join(repoRoot, 'test/fixtures/drawings')).filter((f) => f.endsWith('.svg'));
const features = await Promise.all(
  files.map(async (f) => (await classifyWithFeatures(await renderDrawing(f), runnerOf(engine))).features!),
);
await engine.dispose();

let c0 = cpuMs();
drawingVotes(features[0]!, DRAWING_TABLE);
const first = cpuMs() - c0;
const colourRows = DRAWING_TABLE.lineArtFrom ?? DRAWING_TABLE.drawings.length;
for (const [kind, lineDrawing, rows] of [
  ['clip art', false, colourRows],
  ['line drawing', true, DRAWING_TABLE.drawings.length],
] as const) {
  c0 = cpuMs();
  const t0 = performance.now();
  for (let r = 0; r < ROUNDS; r++) for (const f of features) drawingVotes(f, DRAWING_TABLE, { lineDrawing });
  const calls = ROUNDS * features.length;
  console.log(
    `drawing vote as ${kind}: ${((cpuMs() - c0) / calls).toFixed(2)} ms CPU per image (${((performance.now() - t0) / calls).toFixed(2)} ms wall; ` +
      `mean of ${calls} on ${files.length} drawings, ${rows} table rows); first call ${first.toFixed(1)} ms CPU; ` +
      `load average ${loadavg()[0]!.toFixed(1)}`,
  );
}
chartVote(features[0]!, CHART_TABLE, DRAWING_TABLE);
c0 = cpuMs();
const t0 = performance.now();
for (let r = 0; r < ROUNDS; r++) for (const f of features) chartVote(f, CHART_TABLE, DRAWING_TABLE);
const calls = ROUNDS * features.length;
console.log(
  `chart vote: ${((cpuMs() - c0) / calls).toFixed(2)} ms CPU per image (${((performance.now() - t0) / calls).toFixed(2)} ms wall; ` +
    `mean of ${calls}, ${CHART_TABLE.rows.length} reference charts); load average ${loadavg()[0]!.toFixed(1)}`,
);
