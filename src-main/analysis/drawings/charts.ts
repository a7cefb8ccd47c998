// Charts (bar, line, pie … rendered by matplotlib) as references in the drawing table's feature
// space: a chart is named by its nearest references, as a drawing is by the drawing vocabulary.
// The table comes from the caller (the committed one: CHART_TABLE), so the generator can use this
// file before the table exists.
import { DRAWING_KNN, projectFeatures } from './knn';
import type { DrawingTable } from './table';

/** Words of the reference charts' kinds (the renderer's file-name kinds). */
export const CHART_KIND_WORDS: Readonly<Record<string, string>> = {
  bar: 'bar chart',
  barh: 'bar chart',
  groupbar: 'bar chart',
  hist: 'bar chart',
  line: 'line chart',
  multiline: 'line chart',
  step: 'line chart',
  scatter: 'scatter plot',
  pie: 'pie chart',
  area: 'area chart',
  box: 'box plot',
};

/** The generated table models/drawings/chart-references.json (`npx tsx tooling/drawings/charts-table.ts`). */
export interface ChartTable {
  source: string;
  /** `projectionId` of the drawing table whose PCA projected the rows. */
  projection: string;
  dims: number;
  /** Kind names (keys of CHART_KIND_WORDS). */
  kinds: string[];
  /** Per reference chart, its kind (index into `kinds`). */
  rows: number[];
  /** `dims` int8 values per reference chart (base64), unit length up to the rounding. */
  vectors: string;
}

/** What the nearest reference charts say about an image. */
export interface ChartVote {
  /** Best cosine similarity to a reference chart. */
  similarity: number;
  /** The kind most of the k nearest charts share ("bar chart"), by weight similarity⁴. */
  kind: string;
  /** That kind's weighted share of the k nearest, 0..1. */
  kindShare: number;
}

/** The chart evidence of an image: the reference charts' vote and the drawing vocabulary's best similarity. */
export interface ChartEvidence extends ChartVote {
  /** Best cosine similarity of the drawing vocabulary's neighbours (0 when it did not vote). */
  drawingSimilarity: number;
  /** Exactly flat share of the image's outer band (TextureStats.borderFlat): a chart's margin is plain. */
  borderFlat: number;
}

/** Identifies a drawing table's projection (FNV-1a of its mean and axes), so a chart table made with another is refused. */
export function projectionId(t: DrawingTable): string {
  let h = 0x811c9dc5;
  for (const s of [t.mean, t.axes, t.axisScale.join(',')])
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

const decodedCharts = new WeakMap<ChartTable, Float32Array>();

function chartVectors(c: ChartTable, t: DrawingTable): Float32Array {
  let v = decodedCharts.get(c);
  if (v) return v;
  if (c.projection !== projectionId(t) || c.dims !== t.dims)
    throw new Error('chart table: made with another drawing table; regenerate it (npx tsx tooling/drawings/charts-table.ts)');
  const q = new Int8Array(Buffer.from(c.vectors, 'base64').buffer.slice(0));
  v = new Float32Array(q.length);
  for (let i = 0; i < c.rows.length; i++) {
    let n = 0;
    for (let j = 0; j < c.dims; j++) n += q[i * c.dims + j]! ** 2;
    const s = 1 / Math.sqrt(n || 1);
    for (let j = 0; j < c.dims; j++) v[i * c.dims + j] = q[i * c.dims + j]! * s;
  }
  decodedCharts.set(c, v);
  return v;
}

/** The nearest reference charts' vote on pooled classifier features (cosine in the drawing table's PCA space). */
export function chartVote(features: ArrayLike<number>, charts: ChartTable, drawings: DrawingTable): ChartVote {
  const q = projectFeatures(features, drawings);
  const v = chartVectors(charts, drawings);
  const { k, weightPower } = DRAWING_KNN;
  const sims = charts.rows.map((_, i) => {
    let s = 0;
    for (let j = 0; j < charts.dims; j++) s += q[j]! * v[i * charts.dims + j]!;
    return { i, s };
  });
  const nearest = sims.sort((a, b) => b.s - a.s).slice(0, k);
  const weights = new Map<string, number>();
  let total = 0;
  for (const { i, s } of nearest) {
    const w = Math.max(0, s) ** weightPower;
    const word = CHART_KIND_WORDS[charts.kinds[charts.rows[i]!]!] ?? 'chart';
    weights.set(word, (weights.get(word) ?? 0) + w);
    total += w;
  }
  const [kind, w] = [...weights].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? ['chart', 0];
  return { similarity: nearest[0]?.s ?? 0, kind, kindShare: total > 0 ? w / total : 0 };
}
