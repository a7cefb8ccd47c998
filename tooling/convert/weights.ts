/**
 * Decodes a TF.js weight manifest exactly as tfjs-core's io.decodeWeights does:
 * uint8/uint16 affine quantization -> v*scale+min (float64 math, stored to float32; int32 rounds),
 * float16 -> exact float32.
 */
import { halfToFloat } from './fp16';
import { numel, type ConstTensor } from './tensor-data';
import type { WeightSpec } from './tfjs-source';

export function decodeWeights(specs: WeightSpec[], data: ArrayBuffer): Map<string, ConstTensor> {
  const out = new Map<string, ConstTensor>();
  let offset = 0;
  for (const spec of specs) {
    const n = numel(spec.shape);
    const q = spec.quantization;
    const dtype = spec.dtype;
    if (dtype === 'string') throw new Error(`string weight ${spec.name} unsupported`);
    if (q) {
      const bytesPer = q.dtype === 'uint8' ? 1 : 2;
      const slice = data.slice(offset, offset + n * bytesPer);
      offset += n * bytesPer;
      if (q.dtype === 'float16') {
        const raw = new Uint16Array(slice);
        const values = new Float32Array(n);
        for (let i = 0; i < n; i++) values[i] = halfToFloat(raw[i]!);
        out.set(spec.name, { dtype: 'float32', shape: spec.shape, values, encoding: { kind: 'float16', raw } });
      } else {
        const raw = q.dtype === 'uint8' ? new Uint8Array(slice) : new Uint16Array(slice);
        const scale = q.scale!;
        const min = q.min!;
        if (dtype === 'int32') {
          const values = new Int32Array(n);
          for (let i = 0; i < n; i++) values[i] = Math.round(raw[i]! * scale + min);
          out.set(spec.name, { dtype: 'int32', shape: spec.shape, values });
        } else {
          const values = new Float32Array(n);
          for (let i = 0; i < n; i++) values[i] = raw[i]! * scale + min;
          out.set(spec.name, { dtype: 'float32', shape: spec.shape, values, encoding: { kind: 'affine', raw, scale, min } });
        }
      }
      continue;
    }
    const bytesPer = dtype === 'bool' ? 1 : 4;
    const slice = data.slice(offset, offset + n * bytesPer);
    offset += n * bytesPer;
    const values = dtype === 'float32' ? new Float32Array(slice) : dtype === 'int32' ? new Int32Array(slice) : new Uint8Array(slice);
    out.set(spec.name, { dtype, shape: spec.shape, values });
  }
  if (offset !== data.byteLength) throw new Error(`weight data size mismatch: used ${offset} of ${data.byteLength}`);
  return out;
}
