/**
 * Place descriptors: a global image descriptor that tolerates cropping, rescaling and lighting.
 *
 * 0. Resampling to a canonical size (shorter side `PLACE_CANONICAL_PX`).
 * 1. Grey-world colour balance (each channel scaled to the common mean): a colour cast or white
 *    balance shift becomes nearly a no-op before the network sees the pixels.
 * 2. The photo-content network (`content-net/`, a MobileNetV2 already shipped) on the whole frame plus square crops at
 *    1.0 and 0.7 of the shorter side, overlapping by half: each crop's 1792-d global-average-
 *    pooled `features` is L2-normalised.
 * 3. The mean of the crop vectors, L2-normalised, is the image's descriptor. A differently
 *    framed photo of the same scene shares most crops, so the average moves little.
 *
 * Per-crop vectors are kept for queries: the best-matching crop gives the landmark's box.
 */
import { cropRgb, l2Normalize, resizeRgb, type Box, type ModelRunner, type RgbImage } from '../../inference';
import { CONTENT_NET_MODEL_ID, runContentNet } from '../content-net';
import { PLACE_DESCRIPTOR } from './descriptor-spec';

/**
 * Shorter side, px, every image is resampled to before cropping (antialiased). Reference and
 * query then reach the network at the same resolution whatever their pixel size: without it a
 * 0.6× copy of a photo crop scored 0.46 against a reference crop, with it 0.73 (docs/galleries.md).
 */
export const PLACE_CANONICAL_PX = 224;

/** Square crop sides as fractions of the image's shorter side. */
export const PLACE_CROP_SCALES = [1, 0.7] as const;

/** One described crop: its rectangle (image px) and L2-normalised features. */
export interface PlaceCrop {
  rect: Box;
  vector: Float32Array;
}

/** The pooled descriptor (L2-normalised, not centred) and the crops it was pooled from. */
export interface PlaceDescriptor {
  vector: Float32Array;
  crops: PlaceCrop[];
}

/** Whole frame first, then overlapping squares per scale (row-major). */
export function placeWindows(width: number, height: number): Box[] {
  const out: Box[] = [{ left: 0, top: 0, width, height }];
  for (const scale of PLACE_CROP_SCALES) {
    const side = Math.max(1, Math.round(scale * Math.min(width, height)));
    const xs = positions(width, side);
    const ys = positions(height, side);
    for (const top of ys) for (const left of xs) out.push({ left, top, width: side, height: side });
  }
  return out;
}

// Window origins along one axis: stride ≤ side/2, first and last flush with the edges.
function positions(length: number, side: number): number[] {
  if (side >= length) return [Math.max(0, (length - side) / 2)];
  const n = Math.ceil((length - side) / (side / 2)) + 1;
  return Array.from({ length: n }, (_, i) => Math.round(((length - side) * i) / (n - 1)));
}

/** Grey-world balance: channel c is scaled by mean(all) / mean(c), clamped to 0..255. */
export function greyWorld(img: RgbImage): RgbImage {
  const sum = [0, 0, 0];
  for (let i = 0; i < img.data.length; i += 3) {
    sum[0]! += img.data[i]!;
    sum[1]! += img.data[i + 1]!;
    sum[2]! += img.data[i + 2]!;
  }
  const grey = (sum[0]! + sum[1]! + sum[2]!) / 3;
  const gain = sum.map((s) => (s > 0 ? grey / s : 1));
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.round(img.data[i]! * gain[i % 3]!));
  return { data: out, width: img.width, height: img.height, channels: 3 };
}

/**
 * The network a place descriptor reads per window: its pooled features (any length). The shipped
 * descriptor is the photo-content network's `features` (PLACE_DESCRIPTOR); other networks are
 * measured against it by `npm run bench -- gallery` (docs/galleries.md).
 */
export interface PlaceNet {
  /** Manifest id of the model (for messages). */
  modelId: string;
  dim: number;
  features(crop: RgbImage, runModel: ModelRunner, signal?: AbortSignal): Promise<ArrayLike<number> | undefined>;
}

/** The shipped place network: the photo-content network's pooled 1 792-d features. */
export const CONTENT_PLACE_NET: PlaceNet = {
  modelId: CONTENT_NET_MODEL_ID,
  dim: PLACE_DESCRIPTOR.dim,
  features: async (crop, runModel, signal) =>
    (await runContentNet(crop, runModel, signal))[PLACE_DESCRIPTOR.output]?.data as ArrayLike<number>,
};

/** Describes an image for the place gallery (one model run per window, ~10–15 runs). */
export async function describePlace(
  img: RgbImage,
  runModel: ModelRunner,
  signal?: AbortSignal,
  net: PlaceNet = CONTENT_PLACE_NET,
): Promise<PlaceDescriptor> {
  const k = PLACE_CANONICAL_PX / Math.min(img.width, img.height);
  const canonical = await resizeRgb(img, Math.max(1, Math.round(img.width * k)), Math.max(1, Math.round(img.height * k)));
  const balanced = greyWorld(canonical);
  const crops: PlaceCrop[] = [];
  const pooled = new Float32Array(net.dim);
  for (const rect of placeWindows(balanced.width, balanced.height)) {
    signal?.throwIfAborted();
    const raw = await net.features(cropRgb(balanced, rect), runModel, signal);
    if (!raw || raw.length !== net.dim) throw new Error(`${net.modelId}: expected ${net.dim} pooled features, got ${raw?.length ?? 0}`);
    const vector = l2Normalize(raw);
    for (let i = 0; i < vector.length; i++) pooled[i]! += vector[i]!;
    // Rectangles are reported in the caller's image px.
    crops.push({ rect: { left: rect.left / k, top: rect.top / k, width: rect.width / k, height: rect.height / k }, vector });
  }
  return { vector: l2Normalize(pooled), crops };
}
