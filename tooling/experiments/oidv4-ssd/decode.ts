/**
 * Decoding of MediaPipe SSD detectors (phase-1 tooling for measuring oidv4-ssd; not the app's
 * decoder). Anchors follow MediaPipe's SsdAnchorsCalculator (non-multiscale path), box decoding
 * its TensorsToDetectionsCalculator; the options are the ones compiled into @mediapipe/objectron's
 * ObjectDetectionOidV4Subgraph (decoded from the serialized graph config in the package's WASM):
 *   ImageToTensor: 300x300, keep_aspect_ratio false, float range [-1, 1]
 *   SsdAnchors: num_layers 6, min_scale 0.2, max_scale 0.95, strides 16,32,64,128,256,512,
 *     aspect_ratios 1, 2, 0.5, 3, 0.3333, anchor offset 0.5, reduce_boxes_in_lowest_layer true
 *     (interpolated_scale_aspect_ratio 1.0 by default)
 *   TensorsToDetections: num_classes 24, num_boxes 1917, num_coords 4, x/y_scale 10, w/h_scale 5,
 *     apply_exponential_on_box_size, sigmoid_score, ignore class 0, min_score_thresh 0.5
 *   NonMaxSuppression: IoU 0.5, max 100, weighted, class-agnostic (here: hard NMS per class)
 */
import { nms, sigmoid, type Box } from '../../../src-main/inference/tensor';

export interface SsdAnchorOptions {
  inputHeight: number;
  inputWidth: number;
  minScale: number;
  maxScale: number;
  strides: number[];
  aspectRatios: number[];
  anchorOffset: number;
  reduceBoxesInLowestLayer: boolean;
  interpolatedScaleAspectRatio: number;
}

/** Anchor centre and size, 0..1 of the input. */
export interface Anchor {
  cx: number;
  cy: number;
  w: number;
  h: number;
}

export const OIDV4_ANCHORS: SsdAnchorOptions = {
  inputHeight: 300,
  inputWidth: 300,
  minScale: 0.2,
  maxScale: 0.95,
  strides: [16, 32, 64, 128, 256, 512],
  aspectRatios: [1, 2, 0.5, 3, 0.3333],
  anchorOffset: 0.5,
  reduceBoxesInLowestLayer: true,
  interpolatedScaleAspectRatio: 1,
};

/** Box coder of TensorsToDetectionsCalculator (TF object-detection order [y, x, h, w]). */
export const OIDV4_BOX_SCALES = { x: 10, y: 10, w: 5, h: 5 };

const scaleAt = (o: SsdAnchorOptions, i: number): number =>
  o.strides.length === 1 ? (o.minScale + o.maxScale) / 2 : o.minScale + ((o.maxScale - o.minScale) * i) / (o.strides.length - 1);

/** SsdAnchorsCalculator: per layer (layers of equal stride merged), rows, columns, then anchors of the cell. */
export function ssdAnchors(o: SsdAnchorOptions): Anchor[] {
  const anchors: Anchor[] = [];
  let layer = 0;
  while (layer < o.strides.length) {
    const ratios: number[] = [];
    const scales: number[] = [];
    let last = layer;
    while (last < o.strides.length && o.strides[last] === o.strides[layer]) {
      const scale = scaleAt(o, last);
      if (last === 0 && o.reduceBoxesInLowestLayer) {
        ratios.push(1, 2, 0.5);
        scales.push(0.1, scale, scale);
      } else {
        for (const r of o.aspectRatios) {
          ratios.push(r);
          scales.push(scale);
        }
        if (o.interpolatedScaleAspectRatio > 0) {
          const next = last === o.strides.length - 1 ? 1 : scaleAt(o, last + 1);
          scales.push(Math.sqrt(scale * next));
          ratios.push(o.interpolatedScaleAspectRatio);
        }
      }
      last++;
    }
    const fh = Math.ceil(o.inputHeight / o.strides[layer]!);
    const fw = Math.ceil(o.inputWidth / o.strides[layer]!);
    for (let y = 0; y < fh; y++)
      for (let x = 0; x < fw; x++)
        for (let a = 0; a < ratios.length; a++) {
          const r = Math.sqrt(ratios[a]!);
          anchors.push({ cx: (x + o.anchorOffset) / fw, cy: (y + o.anchorOffset) / fh, w: scales[a]! * r, h: scales[a]! / r });
        }
    layer = last;
  }
  return anchors;
}

export interface SsdDetection {
  /** 0..1 of the model input (= of the stretched image). */
  box: Box;
  score: number;
  label: number;
}

/**
 * One detection per anchor with its best non-background class (as MediaPipe), kept at
 * score >= minScore, then hard NMS per class.
 */
export function decodeSsd(
  boxes: Float32Array,
  logits: Float32Array,
  anchors: Anchor[],
  numClasses: number,
  minScore: number,
  iouThreshold = 0.5,
  ignore: number[] = [0],
): SsdDetection[] {
  const s = OIDV4_BOX_SCALES;
  const byClass = new Map<number, SsdDetection[]>();
  anchors.forEach((a, i) => {
    let best = -1;
    let bestLogit = -Infinity;
    for (let c = 0; c < numClasses; c++) {
      if (ignore.includes(c)) continue;
      const v = logits[i * numClasses + c]!;
      if (v > bestLogit) [best, bestLogit] = [c, v];
    }
    const score = sigmoid(bestLogit);
    if (score < minScore) return;
    const [dy, dx, dh, dw] = [boxes[i * 4]!, boxes[i * 4 + 1]!, boxes[i * 4 + 2]!, boxes[i * 4 + 3]!];
    const cy = (dy / s.y) * a.h + a.cy;
    const cx = (dx / s.x) * a.w + a.cx;
    const h = Math.exp(dh / s.h) * a.h;
    const w = Math.exp(dw / s.w) * a.w;
    const det = { box: { left: cx - w / 2, top: cy - h / 2, width: w, height: h }, score, label: best };
    byClass.set(best, [...(byClass.get(best) ?? []), det]);
  });
  const out: SsdDetection[] = [];
  for (const dets of byClass.values()) {
    const keep = nms(
      dets.map((d) => d.box),
      dets.map((d) => d.score),
      { iouThreshold, maxCount: 100 },
    );
    out.push(...keep.map((k) => dets[k]!));
  }
  return out.sort((a, b) => b.score - a.score);
}
