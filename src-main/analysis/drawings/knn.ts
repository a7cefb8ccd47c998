// The table comes from the caller (the committed one: DRAWING_TABLE), so the generator can use
// this file before the table exists.
import type { DrawingTable } from './table';

/** Neighbours that vote, and how the vote is weighted. */
export const DRAWING_KNN = {
  /** Nearest reference drawings consulted. */
  k: 10,
  /** A neighbour's vote is its cosine similarity to this power: near copies count much more than look-alikes. */
  weightPower: 4,
} as const;

/** A label the nearest reference drawings vote for (a drawing voting for lion votes for big cat and animal too). */
export interface DrawingVote {
  /** Vocabulary index. */
  label: number;
  word: string;
  /** Weighted share of the k neighbours carrying the label or one below it, 0..1. */
  share: number;
  /** Best cosine similarity among those neighbours. */
  similarity: number;
  /** Hypernyms of the label in the vocabulary: its general tags, nearest first. */
  parents: number[];
  /** A kind of things: some other label of the vocabulary lies below it (mammal, container). */
  general: boolean;
}

/** The table decoded once: projection and reference vectors as floats. */
interface Decoded {
  mean: Float32Array;
  axes: Float32Array;
  vectors: Float32Array;
  /** Per vocabulary label, itself and its ancestors. */
  lineage: number[][];
  /** Labels that are a parent of another label. */
  general: Set<number>;
}

/** Decoded tables (the committed one; the generator decodes its drafts too). */
const decodedTables = new WeakMap<DrawingTable, Decoded>();

function decoded(t: DrawingTable): Decoded {
  let d = decodedTables.get(t);
  if (!d) decodedTables.set(t, (d = decode(t)));
  return d;
}

const bytes = (b64: string): Uint8Array => new Uint8Array(Buffer.from(b64, 'base64'));

function decode(t: DrawingTable): Decoded {
  const mean = new Float32Array(bytes(t.mean).slice().buffer);
  const a8 = new Int8Array(bytes(t.axes).slice().buffer);
  const axes = new Float32Array(a8.length);
  for (let r = 0; r < t.dims; r++)
    for (let c = 0; c < t.features; c++) axes[r * t.features + c] = a8[r * t.features + c]! * t.axisScale[r]!;
  const v8 = new Int8Array(bytes(t.vectors).slice().buffer);
  const vectors = new Float32Array(v8.length);
  for (let i = 0; i < t.drawings.length; i++) {
    let n = 0;
    for (let j = 0; j < t.dims; j++) n += v8[i * t.dims + j]! ** 2;
    const s = 1 / Math.sqrt(n || 1);
    for (let j = 0; j < t.dims; j++) vectors[i * t.dims + j] = v8[i * t.dims + j]! * s;
  }
  const lineage = t.vocabulary.map((l, i) => [i, ...l.parents]);
  return { mean, axes, vectors, lineage, general: new Set(t.vocabulary.flatMap((l) => l.parents)) };
}

/** The unit-length PCA projection of pooled classifier features. */
export function projectFeatures(features: ArrayLike<number>, t: DrawingTable): Float32Array {
  const d = decoded(t);
  if (features.length !== t.features) throw new Error(`drawing table: ${features.length} features, expected ${t.features}`);
  const out = new Float32Array(t.dims);
  let n = 0;
  for (let r = 0; r < t.dims; r++) {
    let s = 0;
    const row = r * t.features;
    for (let c = 0; c < t.features; c++) s += (features[c]! - d.mean[c]!) * d.axes[row + c]!;
    out[r] = s;
    n += s * s;
  }
  const inv = 1 / Math.sqrt(n || 1);
  for (let r = 0; r < t.dims; r++) out[r]! *= inv;
  return out;
}

/** Who is asking. */
export interface VoteOptions {
  /**
   * The image is a line drawing: the table's line-art renderings of colour drawings vote too.
   * Colour drawings and clip art are compared with the colour renderings only (the line-art rows
   * pull some of them to wrong neighbours: docs/analysis.md "Drawing vocabulary").
   */
  lineDrawing?: boolean;
}

/** The labels the k nearest reference drawings (cosine over the projected features) vote for, most shared first. */
export function drawingVotes(features: ArrayLike<number>, t: DrawingTable, options: VoteOptions = {}): DrawingVote[] {
  const q = projectFeatures(features, t);
  const d = decoded(t);
  const { k, weightPower } = DRAWING_KNN;
  const best: { i: number; sim: number }[] = [];
  const rows = options.lineDrawing ? t.drawings.length : (t.lineArtFrom ?? t.drawings.length);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    const at = i * t.dims;
    for (let j = 0; j < t.dims; j++) s += q[j]! * d.vectors[at + j]!;
    if (best.length < k || s > best[best.length - 1]!.sim) {
      best.push({ i, sim: s });
      best.sort((a, b) => b.sim - a.sim);
      if (best.length > k) best.pop();
    }
  }
  const votes = new Map<number, { w: number; sim: number }>();
  let total = 0;
  for (const { i, sim } of best) {
    const w = Math.max(0, sim) ** weightPower;
    total += w;
    const labels = new Set(t.drawings[i]!.flatMap((l) => d.lineage[l]!));
    for (const l of labels) {
      const v = votes.get(l) ?? { w: 0, sim: 0 };
      votes.set(l, { w: v.w + w, sim: Math.max(v.sim, sim) });
    }
  }
  return [...votes]
    .map(([label, v]) => ({
      label,
      word: t.vocabulary[label]!.word,
      share: total > 0 ? v.w / total : 0,
      similarity: v.sim,
      parents: t.vocabulary[label]!.parents,
      general: d.general.has(label),
    }))
    .sort((a, b) => b.share - a.share || a.label - b.label);
}
