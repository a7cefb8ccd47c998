/**
 * A flat, in-memory gallery of L2-normalised descriptors: one Float32Array of `rows × dim`
 * (row-major) plus the entry id of each row. Every query is compared with every row (no
 * approximate index). Small galleries use an exact JavaScript loop. Large ones
 * (≥ `ORT_SCAN_MIN_ROWS`) are scanned by a one-node ONNX graph over an int8 copy of the matrix,
 * and the best `RESCORE_ROWS` rows of that scan are rescored exactly in float32, so reported
 * scores are always exact cosines.
 */
import { openSession, type Session } from '../../inference';
import { buildQuantizedScanModel, quantizeTransposed, SCAN_IO } from './onnx-scan-model';

/** Rows from which the int8 ONNX scan is used (below it the JS loop takes < 2 ms). */
export const ORT_SCAN_MIN_ROWS = 1024;
/**
 * Rows of the int8 scan rescored exactly. int8 cosines are within ~0.003 of the float values
 * (measured max |Δ| in the bench), far below the score gaps that decide a match, so 64 rows
 * keep the true best entries with a wide margin.
 */
export const RESCORE_ROWS = 64;

/** A row to index: the gallery entry it belongs to and its L2-normalised vector. */
export interface IndexRow {
  entryId: number;
  vector: Float32Array;
}

/** Best score of one gallery entry for a query (max over the entry's reference rows). */
export interface EntryScore {
  entryId: number;
  /** Cosine similarity −1..1. */
  score: number;
  /** Index of the best reference row. */
  row: number;
}

/** An immutable gallery matrix with exact top-k entry search (build once per gallery snapshot). */
export class GalleryIndex {
  readonly rows: number;
  private session?: Promise<Session>;

  private constructor(
    readonly dim: number,
    readonly matrix: Float32Array,
    readonly entryIds: Int32Array,
  ) {
    this.rows = entryIds.length;
  }

  /** Packs rows into one matrix; every vector must have length `dim`. */
  static build(dim: number, rows: readonly IndexRow[]): GalleryIndex {
    const matrix = new Float32Array(rows.length * dim);
    const ids = new Int32Array(rows.length);
    rows.forEach((r, i) => {
      if (r.vector.length !== dim) throw new RangeError(`gallery row ${i}: ${r.vector.length} values, expected ${dim}`);
      matrix.set(r.vector, i * dim);
      ids[i] = r.entryId;
    });
    return new GalleryIndex(dim, matrix, ids);
  }

  /** Cosine of `query` with every row (JS loop), `rows` values. */
  scoreJs(query: Float32Array): Float32Array {
    const { dim, matrix } = this;
    const out = new Float32Array(this.rows);
    for (let r = 0; r < this.rows; r++) {
      const o = r * dim;
      // Four accumulators break the add dependency chain (about 1.3× faster in V8).
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let j = 0;
      for (; j + 3 < dim; j += 4) {
        a0 += matrix[o + j]! * query[j]!;
        a1 += matrix[o + j + 1]! * query[j + 1]!;
        a2 += matrix[o + j + 2]! * query[j + 2]!;
        a3 += matrix[o + j + 3]! * query[j + 3]!;
      }
      for (; j < dim; j++) a0 += matrix[o + j]! * query[j]!;
      out[r] = a0 + a1 + a2 + a3;
    }
    return out;
  }

  /** Approximate cosine of `query` with every row from the int8 ONNX scan (any gallery size). */
  async scoreInt8(query: Float32Array, signal?: AbortSignal): Promise<Float32Array> {
    if (query.length !== this.dim) throw new RangeError(`query has ${query.length} values, expected ${this.dim}`);
    const out = await (await this.scanSession()).run({ [SCAN_IO.query]: { data: query, dims: [1, this.dim] } }, signal);
    const scores = out[SCAN_IO.scores];
    if (!scores || scores.data.length !== this.rows) throw new Error('gallery scan returned no scores');
    return scores.data;
  }

  /** The `k` best entries for `query` (each entry's best row, exact cosine), highest first. */
  async best(query: Float32Array, k: number, signal?: AbortSignal): Promise<EntryScore[]> {
    if (query.length !== this.dim) throw new RangeError(`query has ${query.length} values, expected ${this.dim}`);
    if (this.rows === 0) return [];
    if (this.rows < ORT_SCAN_MIN_ROWS) return bestEntries(this.scoreJs(query), this.entryIds, k);
    const approx = await this.scoreInt8(query, signal);
    const rows = topRows(approx, RESCORE_ROWS);
    const exact = new Float32Array(rows.length);
    const ids = new Int32Array(rows.length);
    rows.forEach((r, i) => {
      exact[i] = this.dot(r, query);
      ids[i] = this.entryIds[r]!;
    });
    return bestEntries(exact, ids, k).map((e) => ({ ...e, row: rows[e.row]! }));
  }

  /** Releases the ONNX session, if one was opened. */
  async dispose(): Promise<void> {
    const s = this.session;
    this.session = undefined;
    if (s) await (await s).dispose();
  }

  private dot(row: number, query: Float32Array): number {
    const o = row * this.dim;
    let s = 0;
    for (let j = 0; j < this.dim; j++) s += this.matrix[o + j]! * query[j]!;
    return s;
  }

  private scanSession(): Promise<Session> {
    if (!this.session) {
      const { q, scales } = quantizeTransposed(this.matrix, this.rows, this.dim);
      const model = buildQuantizedScanModel(q, scales, this.rows, this.dim);
      // One thread: the scan is memory-bound and a second thread only adds contention (measured).
      this.session = openSession(
        model,
        { modelId: 'gallery-scan', inputs: [{ name: SCAN_IO.query, shape: [1, this.dim] }] },
        { intraOpNumThreads: 1 },
      );
    }
    return this.session;
  }
}

/** Indices of the `n` largest values, any order (partial selection by a min-heap-free pass). */
export function topRows(values: Float32Array, n: number): number[] {
  if (values.length <= n) return Array.from(values.keys());
  const idx: number[] = [];
  let minAt = -1;
  for (let i = 0; i < values.length; i++) {
    if (idx.length < n) {
      idx.push(i);
      if (idx.length === n) minAt = argMin(values, idx);
    } else if (values[i]! > values[idx[minAt]!]!) {
      idx[minAt] = i;
      minAt = argMin(values, idx);
    }
  }
  return idx;
}

function argMin(values: Float32Array, idx: readonly number[]): number {
  let m = 0;
  for (let k = 1; k < idx.length; k++) if (values[idx[k]!]! < values[idx[m]!]!) m = k;
  return m;
}

/** Reduces row scores to each entry's best row and keeps the top `k` entries (one pass, small k). */
export function bestEntries(scores: Float32Array, entryIds: Int32Array, k: number): EntryScore[] {
  const top: EntryScore[] = [];
  for (let r = 0; r < scores.length; r++) {
    const score = scores[r]!;
    if (top.length === k && score <= top[k - 1]!.score) continue;
    const entryId = entryIds[r]!;
    const same = top.findIndex((t) => t.entryId === entryId);
    if (same >= 0) {
      if (score <= top[same]!.score) continue;
      top.splice(same, 1);
    }
    let i = top.length;
    while (i > 0 && top[i - 1]!.score < score) i--;
    top.splice(i, 0, { entryId, score, row: r });
    if (top.length > k) top.pop();
  }
  return top;
}
