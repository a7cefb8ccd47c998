/**
 * Stored TFLite-interpreter outputs of the quantized models (test/fixtures/parity/<id>.json) and
 * how ONNX Runtime outputs are compared with them. Integer outputs are stored in full: as values
 * (classifier, 1 001 bytes) or run-length encoded (segmentation class maps, 513x513).
 */

/** Parity rules (task brief): uint8 outputs within 2 quantization steps, same top-1; class maps equal on >= 99 % of pixels. */
export const PARITY_RULES = { maxSteps: 2, minClassAgreement: 0.99 } as const;

/** Every value, a strided sample (`values[k]` = element `k·stride`), or run lengths. */
export type StoredIntOutput = { dims: number[]; values: number[]; stride?: number } | { dims: number[]; rle: number[] };

export interface QuantizedParityCase {
  name: string;
  inputSha256: string;
  outputs: Record<string, StoredIntOutput>;
}

export interface QuantizedParityFile {
  model: string;
  generatedBy: string;
  cases: QuantizedParityCase[];
}

/** Run-length encoding as [value, count, value, count, ...] in row-major order. */
export function runLengths(data: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < data.length;) {
    let j = i + 1;
    while (j < data.length && data[j] === data[i]) j++;
    out.push(data[i]!, j - i);
    i = j;
  }
  return out;
}

export function storeOutput(dims: number[], data: ArrayLike<number>, encoding: 'values' | 'rle', stride = 1): StoredIntOutput {
  if (encoding === 'rle') return { dims, rle: runLengths(data) };
  return stride === 1 ? { dims, values: Array.from(data) } : { dims, stride, values: Array.from(strided(data, stride)) };
}

/** Elements 0, stride, 2·stride, ... */
export function strided(data: ArrayLike<number>, stride: number): Int32Array {
  return Int32Array.from({ length: Math.ceil(data.length / stride) }, (_, k) => data[k * stride]!);
}

export function storedValues(o: StoredIntOutput): Int32Array {
  if ('values' in o) return Int32Array.from(o.values);
  const out = new Int32Array(o.dims.reduce((a, b) => a * b, 1));
  let at = 0;
  for (let k = 0; k < o.rle.length; k += 2) {
    out.fill(o.rle[k]!, at, at + o.rle[k + 1]!);
    at += o.rle[k + 1]!;
  }
  if (at !== out.length) throw new Error(`run lengths cover ${at} of ${out.length} values`);
  return out;
}

/** The elements of `data` that `o` stores (all, or its strided sample). */
export function comparable(data: Int32Array, o: StoredIntOutput): Int32Array {
  return 'values' in o && o.stride ? strided(data, o.stride) : data;
}

/** Integer view of an output tensor (uint8/int8/int32/int64). */
export function asNumbers(data: ArrayLike<number> | BigInt64Array): Int32Array {
  return data instanceof BigInt64Array ? Int32Array.from(data, (v) => Number(v)) : Int32Array.from(data as ArrayLike<number>);
}

/** Index of the first maximum (TFLite's ARG_MAX and ONNX ArgMax tie rule). */
export function argmax(v: ArrayLike<number>, from = 0, to = v.length): number {
  let best = from;
  for (let i = from + 1; i < to; i++) if (v[i]! > v[best]!) best = i;
  return best - from;
}

export interface ValueComparison {
  /** max |got - want| in quantization steps. */
  maxSteps: number;
  /** How many values differ at all. */
  differing: number;
  top1Equal: boolean;
}

export function compareValues(got: ArrayLike<number>, want: ArrayLike<number>): ValueComparison {
  if (got.length !== want.length) throw new Error(`${got.length} vs ${want.length} values`);
  let maxSteps = 0;
  let differing = 0;
  for (let i = 0; i < got.length; i++) {
    const d = Math.abs(got[i]! - want[i]!);
    maxSteps = Math.max(maxSteps, d);
    if (d > 0) differing++;
  }
  return { maxSteps, differing, top1Equal: argmax(got) === argmax(want) };
}

/** Fraction of equal elements (class maps). */
export function agreement(got: ArrayLike<number>, want: ArrayLike<number>): number {
  if (got.length !== want.length) throw new Error(`${got.length} vs ${want.length} values`);
  let same = 0;
  for (let i = 0; i < got.length; i++) if (got[i] === want[i]) same++;
  return same / got.length;
}
