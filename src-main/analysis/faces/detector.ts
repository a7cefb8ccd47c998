/**
 * Stage 1: BlazeFace (back-camera model, 256 px) over the windows of a search plan, decoded to
 * image px and merged across windows with NMS.
 */
import { throwIfAborted } from '../../core';
import {
  inputLength,
  nms,
  outputData,
  resizeRgb,
  windowFeeds,
  windowToImage,
  type ModelRunner,
  type RgbImage,
  type Window,
} from '../../inference';
import { BLAZEFACE_BACK_LAYOUT, generateAnchors } from './anchors';
import { decodeDetections, KEYPOINTS, ROW_SIZE, type RawDetection } from './decode-detections';
import type { SearchLevel } from './search-plan';

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
  img: RgbImage,
  levels: readonly SearchLevel[],
  runner: ModelRunner,
  signal?: AbortSignal,
  minScore: number = DETECTOR_MIN_SCORE,
): Promise<Candidate[]> {
  const all: Candidate[] = [];
  // Up to two runs in flight, so an asynchronous runner overlaps the next warp with the previous
  // run (onnxruntime-node's run blocks the calling thread, so through the engine they alternate;
  // with the analyze worker's core idle, one of the two runs there: services/spare-core-runner.ts).
  const pending: Array<Promise<void>> = [];
  // Three input buffers in rotation: at most two runs are in flight, so the buffer reused is
  // always one whose run has finished (saves ~0.8 MB of garbage per window).
  const spec = runner.spec('blazeface-back');
  const buffers = [0, 1, 2].map(() => new Float32Array(inputLength(spec)));
  let n = 0;
  try {
    for (const level of levels) {
      // Sample each level from a copy shrunk (libvips, area-correct) so its windows are ≈ 256 px:
      // the JS warp then reads ~1 source pixel per output pixel instead of averaging up to 4×4.
      const { src, sx, sy } = await levelSource(img, level.windowPx);
      for (const win of level.windows) {
        throwIfAborted(signal);
        const w: Window = { cx: win.cx * sx, cy: win.cy * sy, size: win.size * Math.sqrt(sx * sy), angleRad: win.angleRad };
        const feeds = windowFeeds(src, spec, w, buffers[n++ % 3]);
        const run = runner.run('blazeface-back', feeds, signal).then((out) => {
          for (const d of decodeDetections(blazefaceRows(outputData(out)), ANCHORS, minScore)) {
            const c = toImage(d, w, sx, sy);
            if (c.size <= level.maxFacePx) all.push(c);
          }
        });
        // The two runs may settle in either order (one can run in the analyze worker): the later
        // one's rejection is observed below, not reported as unhandled meanwhile.
        run.catch(() => undefined);
        pending.push(run);
        if (pending.length >= 2) await pending.shift();
      }
    }
    await Promise.all(pending);
  } catch (err) {
    // A failed or cancelled run leaves its sibling in flight: wait for it, so its own rejection
    // (a cancellation too) is observed here instead of escaping as an unhandled rejection.
    await Promise.allSettled(pending);
    throw err;
  }
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

// Window px → source px (rotation included) → image px (undoing the level's shrink sx, sy).
function toImage(d: RawDetection, win: Window, sx = 1, sy = 1): Candidate {
  const [cx, cy] = windowToImage(win, SIDE, d.cx, d.cy);
  const keypoints: number[] = [];
  for (let k = 0; k < KEYPOINTS; k++) {
    const [x, y] = windowToImage(win, SIDE, d.keypoints[2 * k]!, d.keypoints[2 * k + 1]!);
    keypoints.push(x / sx, y / sy);
  }
  return { score: d.score, cx: cx / sx, cy: cy / sy, size: (Math.max(d.w, d.h) * win.size) / SIDE / Math.sqrt(sx * sy), keypoints };
}

/** Shrink factor below which a level is sampled from a resized copy (milder shrinks are cheap to warp directly). */
const SHRINK_BELOW = 0.6;

// The image a level's windows sample from, and its scale per axis relative to the original.
async function levelSource(img: RgbImage, windowPx: number): Promise<{ src: RgbImage; sx: number; sy: number }> {
  const k = SIDE / windowPx;
  if (k >= SHRINK_BELOW) return { src: img, sx: 1, sy: 1 };
  const w = Math.max(1, Math.round(img.width * k));
  const h = Math.max(1, Math.round(img.height * k));
  const src = await resizeRgb(img, w, h, { fit: 'fill', kernel: 'linear' });
  return { src, sx: w / img.width, sy: h / img.height };
}
