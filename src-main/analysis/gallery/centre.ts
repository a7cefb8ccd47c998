/**
 * Centring of place descriptors. MobileNet's pooled features are non-negative, so every photo
 * shares a large common component and unrelated photos already score ~0.6 cosine. Subtracting the
 * mean descriptor of a varied image population before normalising removes that component:
 * measured leave-one-out on the fixtures, the gap between the 5th percentile of genuine pairs and
 * the 99th percentile of impostor photo pairs grows from 0 to ~0.1 (docs/galleries.md).
 */
import { l2Normalize } from '../../inference/tensor';
import { PLACE_CENTRE_BASE64, PLACE_CENTRE_IMAGES } from './place-centre.generated';
import { PLACE_DESCRIPTOR } from './descriptor-spec';

/** Decodes a little-endian float32 vector from base64. */
export function decodeVector(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** Encodes a float32 vector as little-endian base64 (the export format and generated files). */
export function encodeVector(v: Float32Array): string {
  const bytes = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) bytes.writeFloatLE(v[i]!, i * 4);
  return bytes.toString('base64');
}

/** The place population mean (unit-free, same space as pooled descriptors) and how many images made it. */
export const PLACE_CENTRE = { vector: decodeVector(PLACE_CENTRE_BASE64), images: PLACE_CENTRE_IMAGES };
if (PLACE_CENTRE.vector.length !== PLACE_DESCRIPTOR.dim)
  throw new Error('place-centre.generated.ts does not match the place descriptor size');

/** L2(v − centre): the vector places are indexed and compared with. */
export function centred(v: Float32Array, centre: Float32Array = PLACE_CENTRE.vector): Float32Array {
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! - centre[i]!;
  return l2Normalize(out);
}
