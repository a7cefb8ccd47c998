/** Our dequantization must equal tfjs-core's io.decodeWeights bit for bit. */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { describe, expect, it } from 'vitest';
import type { WeightSpec } from './tfjs-source';
import { decodeWeights } from './weights';

describe('weight decoding', () => {
  it('matches tf.io.decodeWeights for uint8, uint16, float16, int32 and float32 weights', async () => {
    await tf.setBackend('cpu');
    const specs: WeightSpec[] = [
      { name: 'q8', shape: [2, 3], dtype: 'float32', quantization: { dtype: 'uint8', min: -0.733, scale: 0.0123 } },
      { name: 'q16', shape: [3], dtype: 'float32', quantization: { dtype: 'uint16', min: -2.5, scale: 0.00007 } },
      { name: 'h', shape: [5], dtype: 'float32', quantization: { dtype: 'float16' } },
      { name: 'qi', shape: [2], dtype: 'int32', quantization: { dtype: 'uint8', min: 1, scale: 1 } },
      { name: 'f', shape: [2], dtype: 'float32' },
    ];
    const bytes = [
      ...[0, 1, 7, 128, 254, 255],
      ...new Uint8Array(Uint16Array.of(0, 40000, 65535).buffer),
      // half: 1.0, -2.0, smallest subnormal, 65504, -0
      ...new Uint8Array(Uint16Array.of(0x3c00, 0xc000, 0x0001, 0x7bff, 0x8000).buffer),
      ...[3, 250],
      ...new Uint8Array(Float32Array.of(0.1, -7).buffer),
    ];
    const data = Uint8Array.from(bytes).buffer;
    const ours = decodeWeights(specs, data);
    const theirs = tf.io.decodeWeights(data, specs);
    for (const s of specs) {
      expect(Array.from(ours.get(s.name)!.values), s.name).toEqual(Array.from(theirs[s.name]!.dataSync()));
      expect(ours.get(s.name)!.shape).toEqual(s.shape);
    }
    expect(ours.get('h')!.encoding?.kind).toBe('float16');
    expect(ours.get('q8')!.encoding?.kind).toBe('affine');
  });
});
