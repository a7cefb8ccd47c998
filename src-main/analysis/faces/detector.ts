/**
 * Stage 1: BlazeFace (back-camera model, 256 px) over the windows of a search plan, decoded to
 * image px and merged across windows with NMS.
 */
import { nms } from '../../inference/tensor';
import { BLAZEFACE_BACK_LAYOUT, generateAnchors } from './anchors';
import { decodeDetections, KEYPOINTS, ROW_SIZE, type RawDetection } from './decode-detections';
import type { FaceModelRunner } from './runner';
import type { SearchLevel } from './search-plan';
import { warpToTensor, windowToImage, type Window } from './warp';

/** A face candidate in image px: square-ish box centre/size, score and the 6 keypoints. */
export interface Candidate {
  score: number;
  cx: number;
  cy: number;
  /** Box side in image px (BlazeFace boxes are square). */
  size: number;
  /** Keypoints `[x0, y0, …]` in image px; 0 right eye, 1 left eye (subject's), 2 nose, 3 mouth, 4/5 ears. */
  keypoints: number[];
}

/** Detector score threshold (sigmoid). Facemesh's face flag is the second, stricter gate. */
export const DETECTOR_MIN_SCORE = 0.5;
/** IoU above which two candidates are the same face. */
export const MERGE_IOU = 0.3;

const SIDE = BLAZEFACE_BACK_LAYOUT.inputSize;
const ANCHORS = generateAnchors(BLAZEFACE_BACK_LAYOUT);
const N16 = 512;
const N32 = 384;

/** Runs the detector on every window of `levels` and returns merged candidates (score ≥ `minScore`), best first. */
export async function detectCandidates(
  img: Parameters<typeof warpToTensor>[0],
  levels: readonly SearchLevel[],
  runner: FaceModelRunner,
  signal?: AbortSignal,
  minScore: number = DETECTOR_MIN_SCORE,
): Promise<Candidate[]> {
  const all: Candidate[] = [];
  // Two runs in flight: the next window is warped (JS) while ORT runs the previous one (native threads).
  const pending: Array<Promise<void>> = [];
  for (const level of levels) {
    for (const win of level.windows) {
      signal?.throwIfAborted();
      const input = warpToTensor(img, win, { side: SIDE, layout: 'nhwc', scale: 1 / 127.5, offset: -1, channels: 3 });
      pending.push(
        runner.run('blazeface-back', input, signal).then((out) => {
          for (const d of decodeDetections(blazefaceRows(out), ANCHORS, minScore)) {
            const c = toImage(d, win);
            if (c.size <= level.maxFacePx) all.push(c);
          }
        }),
      );
      if (pending.length >= 2) await pending.shift();
    }
  }
  await Promise.all(pending);
  return mergeCandidates(all);
}

/** Greedy NMS across windows and levels (IoU of the axis-aligned boxes). */
export function mergeCandidates(all: readonly Candidate[]): Candidate[] {
  const boxes = all.map((c) => ({ left: c.cx - c.size / 2, top: c.cy - c.size / 2, width: c.size, height: c.size }));
  return nms(
    boxes,
    all.map((c) => c.score),
    { iouThreshold: MERGE_IOU },
  ).map((i) => all[i]!);
}

/**
 * Packs the model's four outputs into `[896 × 17]` rows in anchor order (stride-16 anchors first):
 * `scores_16 [512×1]`, `regressors_16 [512×16]`, `scores_32 [384×1]`, `regressors_32 [384×16]`.
 */
export function blazefaceRows(out: Record<string, Float32Array>): Float32Array {
  const rows = new Float32Array((N16 + N32) * ROW_SIZE);
  const pack = (scores: Float32Array | undefined, regs: Float32Array | undefined, n: number, first: number): void => {
    if (!scores || !regs) throw new Error('blazeface-back: missing scores/regressors output');
    for (let i = 0; i < n; i++) {
      const o = (first + i) * ROW_SIZE;
      rows[o] = scores[i]!;
      rows.set(regs.subarray(i * 16, i * 16 + 16), o + 1);
    }
  };
  pack(out.scores_16, out.regressors_16, N16, 0);
  pack(out.scores_32, out.regressors_32, N32, N16);
  return rows;
}

// Window px → image px (rotation included); the box stays square, its side scaled.
function toImage(d: RawDetection, win: Window): Candidate {
  const [cx, cy] = windowToImage(win, SIDE, d.cx, d.cy);
  const keypoints: number[] = [];
  for (let k = 0; k < KEYPOINTS; k++) keypoints.push(...windowToImage(win, SIDE, d.keypoints[2 * k]!, d.keypoints[2 * k + 1]!));
  return { score: d.score, cx, cy, size: (Math.max(d.w, d.h) * win.size) / SIDE, keypoints };
}
