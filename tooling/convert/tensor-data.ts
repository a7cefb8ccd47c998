/**
 * Constant tensors inside the converter. Values are always available decoded (float32/int32),
 * and weights that came quantized keep their original encoding so the ONNX file can store them
 * compactly (fp16 + Cast, or uint8/uint16 + Cast·scale+min) without changing a single value.
 */
export type Encoding =
  { kind: 'float16'; raw: Uint16Array } | { kind: 'affine'; raw: Uint8Array | Uint16Array; scale: number; min: number };

export interface ConstTensor {
  dtype: 'float32' | 'int32' | 'bool';
  /** TF shape (row-major). */
  shape: number[];
  values: Float32Array | Int32Array | Uint8Array;
  encoding?: Encoding;
}

export const numel = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

type Arr = Float32Array | Int32Array | Uint8Array | Uint16Array;

function transposeArray<T extends Arr>(src: T, shape: number[], perm: number[]): T {
  const rank = shape.length;
  const out = new (src.constructor as new (n: number) => T)(src.length);
  const outShape = perm.map((p) => shape[p]!);
  const inStrides = new Array<number>(rank);
  let s = 1;
  for (let i = rank - 1; i >= 0; i--) {
    inStrides[i] = s;
    s *= shape[i]!;
  }
  const strides = perm.map((p) => inStrides[p]!);
  const idx = new Array<number>(rank).fill(0);
  for (let o = 0; o < out.length; o++) {
    let off = 0;
    for (let d = 0; d < rank; d++) off += idx[d]! * strides[d]!;
    out[o] = src[off]!;
    for (let d = rank - 1; d >= 0; d--) {
      idx[d]! += 1;
      if (idx[d]! < outShape[d]!) break;
      idx[d] = 0;
    }
  }
  return out;
}

/** out.shape[i] = t.shape[perm[i]] (numpy transpose), applied to values and raw encoding alike. */
export function transposeConst(t: ConstTensor, perm: number[]): ConstTensor {
  if (perm.every((p, i) => p === i)) return t;
  const shape = perm.map((p) => t.shape[p]!);
  const values = transposeArray(t.values, t.shape, perm);
  let encoding: Encoding | undefined;
  if (t.encoding) encoding = { ...t.encoding, raw: transposeArray(t.encoding.raw, t.shape, perm) } as Encoding;
  return { dtype: t.dtype, shape, values, encoding };
}

export function reshapeConst(t: ConstTensor, shape: number[]): ConstTensor {
  if (numel(shape) !== numel(t.shape)) throw new Error(`reshape ${t.shape} -> ${shape}`);
  return { ...t, shape };
}
