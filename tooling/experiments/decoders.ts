/**
 * Reference decoders used only to *measure* candidate models (compare-detectors.ts); the app's
 * decoders live in src-main/analysis. Boxes come out in model-input pixels.
 */
import { nms, sigmoid, softmax, type Box } from '../../src-main/inference/tensor';

export interface Detection {
  box: Box;
  score: number;
  label?: number;
}

type Outputs = Record<string, { data: Float32Array; dims: readonly number[] }>;

function finish(dets: Detection[], iouThreshold: number): Detection[] {
  const keep = nms(
    dets.map((d) => d.box),
    dets.map((d) => d.score),
    { iouThreshold, maxCount: 100 },
  );
  return keep.map((i) => dets[i]!);
}

/** MediaPipe-style SSD anchors: one centre per cell, `perCell` anchors, rows then columns. */
function anchorCentre(index: number, grid: number, perCell: number): [number, number] {
  const cell = Math.floor(index / perCell);
  return [((cell % grid) + 0.5) / grid, (Math.floor(cell / grid) + 0.5) / grid];
}

function decodeSsd(
  scores: Float32Array,
  regs: Float32Array,
  stride: number,
  n: number,
  grid: number,
  perCell: number,
  size: number,
  minScore: number,
  scoreOffset: number,
): Detection[] {
  const out: Detection[] = [];
  for (let i = 0; i < n; i++) {
    const score = sigmoid(scores[i * (scoreOffset ? stride : 1)]!);
    if (score < minScore) continue;
    const r = i * stride + scoreOffset;
    const [ax, ay] = anchorCentre(i, grid, perCell);
    const cx = ax * size + regs[r]!;
    const cy = ay * size + regs[r + 1]!;
    const w = regs[r + 2]!;
    const h = regs[r + 3]!;
    out.push({ box: { left: cx - w / 2, top: cy - h / 2, width: w, height: h }, score });
  }
  return out;
}

export function decodeBlazefaceBack(o: Outputs, minScore: number): Detection[] {
  const a = decodeSsd(o.scores_16!.data, o.regressors_16!.data, 16, 512, 16, 2, 256, minScore, 0);
  const b = decodeSsd(o.scores_32!.data, o.regressors_32!.data, 16, 384, 8, 6, 256, minScore, 0);
  return finish([...a, ...b], 0.3);
}

export function decodeFullRange(o: Outputs, minScore: number): Detection[] {
  const d = o.detections!.data;
  return finish(decodeSsd(d, d, 17, 2304, 48, 1, 192, minScore, 1), 0.3);
}

export function decodeCenternet(o: Outputs, minScore: number): Detection[] {
  const heat = o.heatmap!.data;
  const wh = o.box_offsets!.data;
  const G = 128;
  const K = 80;
  const out: Detection[] = [];
  for (let y = 0; y < G; y++)
    for (let x = 0; x < G; x++)
      for (let k = 0; k < K; k++) {
        const s = heat[(y * G + x) * K + k]!;
        if (s < minScore) continue;
        let peak = true;
        for (let dy = -1; dy <= 1 && peak; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const yy = y + dy;
            const xx = x + dx;
            if (yy < 0 || xx < 0 || yy >= G || xx >= G) continue;
            if (heat[(yy * G + xx) * K + k]! > s) peak = false;
          }
        if (!peak) continue;
        const c = (y * G + x) * 4;
        const x1 = 4 * x - wh[c]!;
        const y1 = 4 * y - wh[c + 1]!;
        out.push({ box: { left: x1, top: y1, width: 4 * x + wh[c + 2]! - x1, height: 4 * y + wh[c + 3]! - y1 }, score: s, label: k });
      }
  return finish(out, 0.5);
}

export function decodeNanodet(o: Outputs, minScore: number): Detection[] {
  const out: Detection[] = [];
  for (const stride of [8, 16, 32]) {
    const grid = 416 / stride;
    const scores = o[`scores_${stride}`]!.data;
    const boxes = o[`boxes_${stride}`]!.data;
    for (let i = 0; i < grid * grid; i++)
      for (let k = 0; k < 80; k++) {
        const s = scores[i * 80 + k]!;
        if (s < minScore) continue;
        // Generalized focal loss: each side is a softmax over 11 bins; distance = expectation.
        const dist = [0, 1, 2, 3].map((side) => {
          const p = softmax(boxes.subarray(i * 44 + side * 11, i * 44 + side * 11 + 11));
          return p.reduce((acc, v, j) => acc + v * j, 0) * stride;
        });
        const cx = ((i % grid) + 0.5) * stride;
        const cy = (Math.floor(i / grid) + 0.5) * stride;
        out.push({
          box: { left: cx - dist[0]!, top: cy - dist[1]!, width: dist[0]! + dist[2]!, height: dist[1]! + dist[3]! },
          score: s,
          label: k,
        });
      }
  }
  return finish(out, 0.5);
}
