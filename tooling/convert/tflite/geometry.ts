/** Layout helpers shared by the float and the quantized TFLite converters. */

/** Re-orders a constant's elements by `perm` (out dim j = in dim perm[j]). Byte-wise, so dtype-agnostic. */
export function transposeBytes(
  bytes: Uint8Array,
  shape: number[],
  perm: number[],
  elemSize: number,
): { shape: number[]; bytes: Uint8Array } {
  const outShape = perm.map((p) => shape[p]!);
  const inStrides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const n = outShape.reduce((a, b) => a * b, 1);
  const out = new Uint8Array(n * elemSize);
  const idx = new Array<number>(outShape.length).fill(0);
  for (let o = 0; o < n; o++) {
    let src = 0;
    for (let j = 0; j < outShape.length; j++) src += idx[j]! * inStrides[perm[j]!]!;
    out.set(bytes.subarray(src * elemSize, src * elemSize + elemSize), o * elemSize);
    for (let j = outShape.length - 1; j >= 0; j--) {
      idx[j]! += 1;
      if (idx[j]! < outShape[j]!) break;
      idx[j] = 0;
    }
  }
  return { shape: outShape, bytes: out };
}

/** TF/TFLite SAME padding (odd pixel at the end) as ONNX pads [top, left, bottom, right]. */
export function samePads(inHW: number[], k: number[], s: number[], d: number[]): number[] {
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < 2; i++) {
    const eff = (k[i]! - 1) * d[i]! + 1;
    const out = Math.ceil(inHW[i]! / s[i]!);
    const total = Math.max((out - 1) * s[i]! + eff - inHW[i]!, 0);
    before.push(Math.floor(total / 2));
    after.push(total - Math.floor(total / 2));
  }
  return [before[0]!, before[1]!, after[0]!, after[1]!];
}

/** NHWC <-> NCHW permutations (TFLite activations are NHWC; ONNX convolutions want NCHW). */
export const NHWC_TO_NCHW = [0, 3, 1, 2];
export const NCHW_TO_NHWC = [0, 2, 3, 1];
