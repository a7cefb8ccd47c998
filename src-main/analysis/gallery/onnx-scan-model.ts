/**
 * Builds, in memory, the one-node ONNX graph that scores a query against a large gallery, with
 * the gallery as a constant initializer. The scan reads the whole matrix per query, so it is
 * memory-bound: int8 storage (a quarter of float32) and ONNX Runtime's SIMD kernel make a
 * 10 000 × 1024 scan ~1 ms where a JavaScript float loop takes ~18 ms (docs/galleries.md).
 *
 * Only the handful of protobuf fields this graph needs are written (onnx.proto3 field numbers).
 */

/** Input/output names of the scan graph. */
export const SCAN_IO = { query: 'query', scores: 'scores' } as const;

/**
 * ONNX model bytes for an int8 scan: `scores[1, rows] = query[1, dim] · gallery[dim, rows]` with
 * the gallery stored transposed as symmetric int8 with one float scale per gallery row
 * (`DynamicQuantizeMatMul`, ONNX Runtime's quantised linear layer, which also quantises the query).
 * A quarter of the float32 matrix's bytes: the scan is memory-bound, so it is ~4× faster.
 */
export function buildQuantizedScanModel(q: Int8Array, scales: Float32Array, rows: number, dim: number): Uint8Array {
  const tensorType = (elem: number, dims: number[]): Uint8Array =>
    msg((t) =>
      t.bytes(
        1,
        msg((tt) => {
          tt.varint(1, elem);
          tt.bytes(
            2,
            msg((sh) =>
              dims.forEach((d) =>
                sh.bytes(
                  1,
                  msg((dd) => dd.varint(1, d)),
                ),
              ),
            ),
          );
        }),
      ),
    );
  const valueInfo = (name: string, dims: number[]): Uint8Array =>
    msg((v) => {
      v.string(1, name);
      v.bytes(2, tensorType(1, dims));
    });
  const init = (name: string, elem: number, dims: number[], raw: Uint8Array): Uint8Array =>
    msg((t) => {
      dims.forEach((d) => t.varint(1, d));
      t.varint(2, elem);
      t.string(8, name);
      t.bytes(9, raw);
    });
  const node = msg((n) => {
    n.string(1, SCAN_IO.query);
    n.string(1, 'gallery');
    n.string(1, 'scales');
    n.string(2, SCAN_IO.scores);
    n.string(4, 'DynamicQuantizeMatMul');
    n.string(7, 'com.microsoft');
  });
  const graph = msg((g) => {
    g.bytes(1, node);
    g.string(2, 'gallery-scan-int8');
    g.bytes(5, init('gallery', 3, [dim, rows], new Uint8Array(q.buffer, q.byteOffset, q.length))); // INT8, [dim, rows]
    g.bytes(5, init('scales', 1, [rows], new Uint8Array(scales.buffer, scales.byteOffset, rows * 4)));
    g.bytes(11, valueInfo(SCAN_IO.query, [1, dim]));
    g.bytes(12, valueInfo(SCAN_IO.scores, [1, rows]));
  });
  const w = new ProtoWriter();
  w.varint(1, 8);
  w.string(2, 'picscan');
  w.bytes(7, graph);
  w.bytes(
    8,
    msg((o) => {
      o.string(1, '');
      o.varint(2, 13);
    }),
  );
  w.bytes(
    8,
    msg((o) => {
      o.string(1, 'com.microsoft');
      o.varint(2, 1);
    }),
  );
  return w.finish();
}

/**
 * Symmetric int8 quantisation of row-major `rows × dim` vectors, written transposed (`dim × rows`)
 * as `DynamicQuantizeMatMul` wants its B input; `scales[r]` = max |value| of row r / 127.
 */
export function quantizeTransposed(matrix: Float32Array, rows: number, dim: number): { q: Int8Array; scales: Float32Array } {
  const q = new Int8Array(rows * dim);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(matrix[r * dim + j]!));
    const scale = max > 0 ? max / 127 : 1;
    scales[r] = scale;
    for (let j = 0; j < dim; j++) q[j * rows + r] = Math.round(matrix[r * dim + j]! / scale);
  }
  return { q, scales };
}

function msg(write: (w: ProtoWriter) => void): Uint8Array {
  const w = new ProtoWriter();
  write(w);
  return w.finish();
}

// Minimal protobuf writer: varints and length-delimited fields, chunks joined at the end.
class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private size = 0;

  varint(field: number, value: number): void {
    this.raw(encodeVarint(field * 8));
    this.raw(encodeVarint(value));
  }

  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value));
  }

  bytes(field: number, value: Uint8Array): void {
    this.raw(encodeVarint(field * 8 + 2));
    this.raw(encodeVarint(value.length));
    this.raw(value);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }

  private raw(b: Uint8Array): void {
    this.chunks.push(b);
    this.size += b.length;
  }
}

function encodeVarint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}
