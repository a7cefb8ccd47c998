// `npx tsx tooling/drawings/calibrate.ts`: the figures behind the drawing rules (docs/analysis.md), from the
// work file of `npx tsx tooling/drawings/embed.ts` and the committed table:
//  1. the photo-trained classifier on drawings: how often the top class's words (name, display
//     word, general tags) appear in the drawing's title or keywords, by probability and by
//     photoLikeness, on the reference part (rules/classes.ts CLASS_DRAWING_CALIBRATION);
//  2. the drawing vocabulary (kNN over the table): precision of the label the rules would accept
//     against the drawing's own labels (or their hypernyms), by vote share and similarity, on the
//     held-out part outside the eval:unseen sample (rules/drawings.ts DRAWING_LABEL); then the
//     chosen thresholds on the eval:unseen sample itself;
//  3. the same for the line-art renderings of the held-out drawings (a colouring-book page of each),
//     when the line-art work file (`npx tsx tooling/drawings/embed.ts --style line`) exists.
//   --in FILE        work file (default .cache/drawings/embed.jsonl)
//   --line-in FILE   line-art work file (default .cache/drawings/embed-line.jsonl)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { IMAGENET_HIERARCHY, subjectWord } from '../../src-main/analysis/classifier';
import { drawingVotes } from '../../src-main/analysis/drawings/knn';
import type { DrawingTable } from '../../src-main/analysis/drawings/table';
import { photoProbability } from '../../src-main/analysis/image-type';
import { classConfidence, photoLikenessOf } from '../../src-main/analysis/rules/classes';
import { acceptedDrawingLabels, DRAWING_LABEL } from '../../src-main/analysis/rules/drawings';
import { arg } from '../convert/build';
import { WORDNET_DICT } from '../convert/labels/imagenet-hierarchy';
import { DEFAULT_WORK_FILE, featuresOf, LINE_ART_WORK_FILE, readWorkFile, type EmbeddedDrawing } from './embed';
import { evalSample, splitOf } from '../../test/eval/openclipart';
import { labelledDrawings, TABLE_FILE, type LabelledDrawing } from './table';
import { Vocabulary } from './vocabulary';

const vocab = new Vocabulary(WORDNET_DICT);
const lines = readWorkFile(resolve(arg('--in') ?? DEFAULT_WORK_FILE));
const table = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as DrawingTable;
const pct = (a: number, b: number): string => `${((100 * a) / Math.max(1, b)).toFixed(1)} % (${a}/${b})`;

// 1. The classifier on drawings.
/** Words of a drawing's title and keywords, singular (WordNet's form) and as written. */
function textTerms(d: EmbeddedDrawing): Set<string> {
  const out = new Set<string>();
  const add = (w: string): void => {
    const t = w.toLowerCase().trim();
    if (!t) return;
    out.add(t);
    const l = vocab.lemma(t);
    if (l) out.add(l.replace(/_/g, ' '));
  };
  for (const k of d.keywords) {
    add(k);
    for (const w of k.split(/[^A-Za-z]+/)) add(w);
  }
  const words = d.title.split(/[^A-Za-z]+/).filter(Boolean);
  words.forEach((w, i) => {
    add(w);
    if (i + 1 < words.length) add(`${w} ${words[i + 1]}`);
  });
  return out;
}

/** Whether the top class's name, display word or a general tag is among the drawing's words. */
function hit(d: EmbeddedDrawing): boolean {
  const c = IMAGENET_HIERARCHY.classes[d.classes[0]![0]]!;
  const terms = textTerms(d);
  return [c.name, subjectWord(c), ...c.tags].some((w) => terms.has(w.toLowerCase()));
}

/** photoLikeness as the rules compute it (palette and photo probe). */
const photoLike = (d: EmbeddedDrawing): number => photoLikenessOf(d, d.colorBins90, photoProbability(featuresOf(d)));

const P_BINS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01];
const groups = {
  'line or small palette (0)': (x: number) => x === 0,
  'ramp (0..1)': (x: number) => x > 0 && x < 1,
  'photo-like (1)': (x: number) => x === 1,
};
const seen = new Set<string>();
const reference = lines.filter((d) => {
  const b = d.rel.split('/').at(-1)!;
  if (splitOf(d.rel) !== 'reference' || seen.has(b)) return false;
  seen.add(b);
  return true;
});
console.log(`1. top class's words in the title/keywords, reference part (${reference.length} drawings), by top-class p:`);
for (const [g, inGroup] of Object.entries(groups)) {
  const rows = reference.filter((d) => inGroup(photoLike(d)));
  const cells = P_BINS.slice(0, -1).map((lo, i) => {
    const inBin = rows.filter((d) => d.classes[0]![1] >= lo && d.classes[0]![1] < P_BINS[i + 1]!);
    const hits = inBin.filter(hit).length;
    return `${lo.toFixed(1)}: ${inBin.length ? ((100 * hits) / inBin.length).toFixed(0).padStart(3) : '  -'} % of ${String(inBin.length).padStart(4)}`;
  });
  console.log(`  ${g} (${rows.length}):\n    ${cells.join('\n    ')}`);
  // Least squares of hit (0/1) on p: the precision line the rules use on drawings.
  const xs = rows.map((d) => d.classes[0]![1]);
  const ys = rows.map((d) => (hit(d) ? 1 : 0));
  const mx = xs.reduce((a: number, b) => a + b, 0) / Math.max(1, xs.length);
  const my = ys.reduce((a: number, b) => a + b, 0) / Math.max(1, ys.length);
  const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0);
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const slope = sxy / Math.max(1e-9, sxx);
  console.log(`    fit: hit rate ≈ ${(my - slope * mx).toFixed(3)} + ${slope.toFixed(3)} × p`);
}
// What the gate lets through: the top class as a tag (confidence ≥ 0.5) on clip art, photoLikeness
// from the palette alone and with the photo probe (rules/classes.ts photoLikenessOf).
const clipArt = reference.filter((d) => d.lineDrawingType !== 1 && d.clipArtType >= 2);
for (const [gate, like] of [
  ['palette alone', (d: EmbeddedDrawing) => photoLikenessOf(d, d.colorBins90)],
  ['palette × photo probe', photoLike],
] as const) {
  const tagged = clipArt.filter((d) => classConfidence(d.classes[0]![1], like(d)) >= 0.5);
  console.log(
    `  ${gate}: the top class is a tag (≥ 0.5) on ${tagged.length} of ${clipArt.length} clip-art drawings, right on ${tagged.filter(hit).length}`,
  );
}

// 2. The drawing vocabulary.
const all = labelledDrawings(vocab, lines);
const sampleNames = new Set(evalSample(lines.map((l) => l.rel)).map((r) => r.split('/').at(-1)!));
const heldOut = all.filter((d) => splitOf(d.name) === 'held-out' && d.all.length);
const calibration = heldOut.filter((d) => !sampleNames.has(d.name));
const sample = heldOut.filter((d) => sampleNames.has(d.name));
const lineageNames = (synsets: string[]): Set<string> =>
  new Set(synsets.flatMap((n) => [n, ...vocab.parentsOf(vocab.db.byName.get(n)!).map((p) => p.name)]));

function rate(
  rows: LabelledDrawing[],
  share: number,
  similarity: number,
): { subjects: number; right: number; tags: number; rightTags: number } {
  let subjects = 0;
  let right = 0;
  let tags = 0;
  let rightTags = 0;
  for (const d of rows) {
    const truth = lineageNames(d.all);
    const accepted = acceptedDrawingLabels(drawingVotes(d.features, table, { lineDrawing: d.lineDrawing }), {
      ...DRAWING_LABEL,
      minShare: share,
      minSimilarity: similarity,
    });
    if (!accepted.length) continue;
    subjects++;
    if (table.vocabulary[accepted[0]!.label]!.synset.split(' ').some((x) => truth.has(x))) right++;
    for (const a of accepted) {
      tags++;
      if (table.vocabulary[a.label]!.synset.split(' ').some((x) => truth.has(x))) rightTags++;
    }
  }
  return { subjects, right, tags, rightTags };
}

console.log(
  `\n2. drawing vocabulary on the held-out calibration part (${calibration.length} labelled drawings): subject precision / coverage`,
);
const shares = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
const sims = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
console.log(`  share\\sim ${sims.map((s) => s.toFixed(1).padStart(14)).join('')}`);
for (const sh of shares) {
  const cells = sims.map((si) => {
    const r = rate(calibration, sh, si);
    return `${(r.right / Math.max(1, r.subjects)).toFixed(2)}/${((100 * r.subjects) / calibration.length).toFixed(0)}%`.padStart(14);
  });
  console.log(`  ${sh.toFixed(1).padEnd(9)} ${cells.join('')}`);
}
const subjectsSeen = new Map<string, number>();
for (const d of calibration) {
  const [a] = acceptedDrawingLabels(drawingVotes(d.features, table, { lineDrawing: d.lineDrawing }));
  if (a) subjectsSeen.set(a.word, (subjectsSeen.get(a.word) ?? 0) + 1);
}
console.log(
  `  subjects named at the chosen thresholds: ${[...subjectsSeen]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([w, n]) => `${w} ${n}`)
    .join(', ')}`,
);
const chosen = rate(sample, DRAWING_LABEL.minShare, DRAWING_LABEL.minSimilarity);
const onCal = rate(calibration, DRAWING_LABEL.minShare, DRAWING_LABEL.minSimilarity);
console.log(`\n  chosen thresholds (share ≥ ${DRAWING_LABEL.minShare}, similarity ≥ ${DRAWING_LABEL.minSimilarity}):`);
for (const [name, r, n] of [
  ['calibration part', onCal, calibration.length],
  ['eval:unseen sample', chosen, sample.length],
] as const)
  console.log(
    `    ${name}: subject precision ${pct(r.right, r.subjects)}, accepted tags precision ${pct(r.rightTags, r.tags)}, drawings with a label ${pct(r.subjects, n)}`,
  );

// 3. Line-art renderings of the held-out drawings as queries.
const lineArt = labelledDrawings(vocab, readWorkFile(resolve(arg('--line-in') ?? LINE_ART_WORK_FILE)));
if (lineArt.length) {
  const lineHeld = lineArt.filter((d) => splitOf(d.name) === 'held-out' && d.all.length);
  const lineCalibration = lineHeld.filter((d) => !sampleNames.has(d.name));
  const lineSample = lineHeld.filter((d) => sampleNames.has(d.name));
  console.log(
    `\n3. the held-out drawings rendered as line art (${lineCalibration.length} + ${lineSample.length} labelled), chosen thresholds:`,
  );
  for (const [name, rows] of [
    ['calibration part', lineCalibration],
    ['eval:unseen sample', lineSample],
  ] as const) {
    const r = rate(rows, DRAWING_LABEL.minShare, DRAWING_LABEL.minSimilarity);
    console.log(
      `    ${name}: subject precision ${pct(r.right, r.subjects)}, accepted tags precision ${pct(r.rightTags, r.tags)}, drawings with a label ${pct(r.subjects, rows.length)}`,
    );
  }
}
