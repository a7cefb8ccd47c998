/**
 * TFLite affine quantization as ONNX data: `real = scale * (q - zeroPoint)`, per tensor (one
 * scale) or per axis (one scale per index of `axis`). Mirrors TFLite's own helpers where the
 * converter needs them (fused-activation ranges, bias scale checks, dequantization).
 */
import type { Quantization } from './schema';
import { TensorType } from './schema';

/** Integer element types of quantized activations and weights. */
export type QuantDtype = 'uint8' | 'int8';

/** Representable range of each integer type. */
export const QUANT_RANGE: Record<QuantDtype, [number, number]> = { uint8: [0, 255], int8: [-128, 127] };

export function quantDtypeOf(tensorType: number): QuantDtype | null {
  if (tensorType === TensorType.UINT8) return 'uint8';
  if (tensorType === TensorType.INT8) return 'int8';
  return null;
}

/** TFLite's TfLiteRound / std::round: halves away from zero (JS Math.round rounds them up). */
export const roundHalfAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

/**
 * The quantized output clamp of a fused activation, as TFLite's CalculateActivationRangeQuantized:
 * RELU [zp, qmax], RELU6 [zp, zp + round(6/scale)], RELU_N1_TO_1 [zp + round(-1/s), zp + round(1/s)],
 * each intersected with the type's range. NONE is the type's range.
 */
export function activationRange(act: 'none' | 'relu' | 'relu6' | 'relu-n1-to-1', q: Quantization, dtype: QuantDtype): [number, number] {
  const [qmin, qmax] = QUANT_RANGE[dtype];
  const s = q.scales[0]!;
  const zp = q.zeroPoints[0]!;
  const at = (real: number) => zp + roundHalfAway(real / s);
  if (act === 'none') return [qmin, qmax];
  if (act === 'relu') return [Math.max(qmin, zp), qmax];
  if (act === 'relu6') return [Math.max(qmin, zp), Math.min(qmax, at(6))];
  return [Math.max(qmin, at(-1)), Math.min(qmax, at(1))];
}

/** Float32 values of quantized bytes; `axis` is the per-axis dimension of `shape`. */
export function dequantize(bytes: Uint8Array, dtype: QuantDtype, shape: number[], q: Quantization): Float32Array {
  const values = dtype === 'uint8' ? bytes : new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const inner = shape.slice(q.axis + 1).reduce((a, b) => a * b, 1);
  const perAxis = q.scales.length > 1;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const c = perAxis ? Math.floor(i / inner) % shape[q.axis]! : 0;
    out[i] = q.scales[c]! * (values[i]! - q.zeroPoints[c]!);
  }
  return out;
}

/** Float32 values of an int32 bias quantized with `scales` (zero point 0). */
export function dequantizeBias(bytes: Uint8Array, scales: number[]): Float32Array {
  const v = new Int32Array(bytes.slice().buffer);
  return Float32Array.from(v, (x, i) => x * scales[scales.length > 1 ? i : 0]!);
}

/** Largest relative gap between bias scales and input·filter scales (TFLite requires ≈ 0). */
export function biasScaleGap(bias: Quantization, input: Quantization, filter: Quantization): number {
  let gap = 0;
  bias.scales.forEach((s, i) => {
    const want = input.scales[0]! * filter.scales[filter.scales.length > 1 ? i : 0]!;
    gap = Math.max(gap, Math.abs(s - want) / want);
  });
  return gap;
}
