/**
 * Decoding of BlazeFace-family raw outputs into scored boxes with six keypoints.
 *
 * Raw layout per anchor row (17 floats): `[logit, dx, dy, w, h, k0x, k0y, …, k5x, k5y]`, all
 * offsets and sizes in input px relative to the anchor centre. Keypoints (MediaPipe order, the
 * subject's own sides): 0 right eye, 1 left eye, 2 nose tip, 3 mouth centre, 4 right ear
 * tragion, 5 left ear tragion.
 */
import { sigmoid } from '../../inference';

/** Number of floats per anchor row. */
export const ROW_SIZE = 17;
/** Keypoints per detection. */
export const KEYPOINTS = 6;

/** One detector hit in the coordinate frame it was decoded in. */
export interface RawDetection {
  /** Sigmoid score, 0..1. */
  score: number;
  /** Box centre and size. */
  cx: number;
  cy: number;
  w: number;
  h: number;
  /** Keypoints `[x0, y0, …, x5, y5]`. */
  keypoints: number[];
}

/**
 * Decodes rows whose score passes `minScore` (0..1). `rows` is `[anchors × 17]` float32;
 * `anchors` is from `generateAnchors`. Coordinates stay in input px.
 */
export function decodeDetections(rows: Float32Array, anchors: Float32Array, minScore: number): RawDetection[] {
  const n = anchors.length / 2;
  if (rows.length < n * ROW_SIZE) throw new RangeError(`decodeDetections: ${rows.length} floats for ${n} anchors`);
  // Compare logits, not sigmoids: one exp per kept row instead of per anchor.
  const minLogit = Math.log(minScore / (1 - minScore));
  const out: RawDetection[] = [];
  for (let i = 0; i < n; i++) {
    const o = i * ROW_SIZE;
    const logit = rows[o]!;
    if (!(logit >= minLogit)) continue;
    const ax = anchors[2 * i]!;
    const ay = anchors[2 * i + 1]!;
    const keypoints: number[] = [];
    for (let k = 0; k < KEYPOINTS; k++) keypoints.push(ax + rows[o + 5 + 2 * k]!, ay + rows[o + 6 + 2 * k]!);
    out.push({ score: sigmoid(logit), cx: ax + rows[o + 1]!, cy: ay + rows[o + 2]!, w: rows[o + 3]!, h: rows[o + 4]!, keypoints });
  }
  return out;
}
