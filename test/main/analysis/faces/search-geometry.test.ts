import { describe, expect, it } from 'vitest';
import { BLAZEFACE_BACK_LAYOUT, generateAnchors } from '../../../../src-main/analysis/faces/anchors';
import { decodeDetections, ROW_SIZE } from '../../../../src-main/analysis/faces/decode-detections';
import { blazefaceRows, mergeCandidates, type Candidate } from '../../../../src-main/analysis/faces/detector';
import { countWindows, minFacePx, planSearch, MIN_FACE_DETECTOR_PX } from '../../../../src-main/analysis/faces/search-plan';
import { imageToWindow, warpToTensor, windowToImage, type Window } from '../../../../src-main/inference/warp';

describe('anchors', () => {
  it('match the BlazeFace back grid (896 centres, stride-16 layer first)', () => {
    const a = generateAnchors(BLAZEFACE_BACK_LAYOUT);
    expect(a.length).toBe(896 * 2);
    expect([a[0], a[1], a[2], a[3], a[4]]).toEqual([8, 8, 8, 8, 24]);
    // First stride-32 anchor follows the 512 stride-16 ones.
    expect([a[1024], a[1025]]).toEqual([16, 16]);
  });
});

describe('decodeDetections', () => {
  it('adds anchor offsets to centre and keypoints and applies the score threshold', () => {
    const anchors = Float32Array.from([10, 20, 30, 40]);
    const rows = new Float32Array(2 * ROW_SIZE);
    rows.set([2, 1, -1, 16, 18, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], 0);
    rows[ROW_SIZE] = -5; // sigmoid ≈ 0.0067: dropped
    const d = decodeDetections(rows, anchors, 0.5);
    expect(d).toHaveLength(1);
    expect(d[0]!.score).toBeCloseTo(1 / (1 + Math.exp(-2)), 6);
    expect([d[0]!.cx, d[0]!.cy, d[0]!.w, d[0]!.h]).toEqual([11, 19, 16, 18]);
    expect(d[0]!.keypoints.slice(0, 4)).toEqual([10, 20, 11, 21]);
  });

  it('packs the four blazeface outputs in anchor order', () => {
    const rows = blazefaceRows({
      scores_16: new Float32Array(512).fill(1),
      regressors_16: new Float32Array(512 * 16).fill(2),
      scores_32: new Float32Array(384).fill(3),
      regressors_32: new Float32Array(384 * 16).fill(4),
    });
    expect([rows[0], rows[1], rows[511 * 17 + 16]]).toEqual([1, 2, 2]);
    expect([rows[512 * 17], rows[512 * 17 + 1], rows[895 * 17 + 16]]).toEqual([3, 4, 4]);
  });
});

describe('windows and warping', () => {
  const win: Window = { cx: 50, cy: 40, size: 64, angleRad: 0.3 };

  it('imageToWindow inverts windowToImage', () => {
    const [x, y] = windowToImage(win, 32, 5, 27);
    const [u, v] = imageToWindow(win, 32, x, y);
    expect(u).toBeCloseTo(5, 9);
    expect(v).toBeCloseTo(27, 9);
  });

  it('samples a linear ramp exactly (bilinear is exact on linear images)', () => {
    const width = 120;
    const height = 100;
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x, y, 100], (y * width + x) * 3);
    const side = 16;
    const out = warpToTensor({ data, width, height, channels: 3 }, win, { side, layout: 'nhwc', scale: 1, offset: 0, channels: 3 });
    for (const [u, v] of [
      [0, 0],
      [7, 9],
      [15, 15],
    ] as const) {
      // Pixel centre (u+0.5, v+0.5) of the output maps to image pixel centres at x+0.5.
      const [x, y] = windowToImage(win, side, u + 0.5, v + 0.5);
      expect(out[(v * side + u) * 3]).toBeCloseTo(x - 0.5, 3);
      expect(out[(v * side + u) * 3 + 1]).toBeCloseTo(y - 0.5, 3);
      expect(out[(v * side + u) * 3 + 2]).toBeCloseTo(100, 3);
    }
  });

  it('writes NCHW planes and normalises', () => {
    const data = new Uint8Array([255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0]);
    const out = warpToTensor(
      { data, width: 2, height: 2, channels: 3 },
      { cx: 1, cy: 1, size: 2, angleRad: 0 },
      { side: 2, layout: 'nchw', scale: 1 / 127.5, offset: -1, channels: 3 },
    );
    expect(Array.from(out)).toEqual([1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1, -1]);
  });
});

describe('search plan', () => {
  it('floors the searched face size at 16 px', () => {
    expect(minFacePx(512, 512, 0.015)).toBe(16);
    expect(minFacePx(4000, 3000, 0.015)).toBeCloseTo(45);
  });

  it('needs one window when the whole image resolves the smallest face', () => {
    expect(countWindows(planSearch(1000, 800, minFacePx(1000, 800, 0.1)))).toBe(1);
  });

  it('covers every face size from the floor up with a level whose windows hold it whole', () => {
    const [w, h] = [4000, 3000];
    const minFace = minFacePx(w, h, 0.015);
    const levels = planSearch(w, h, minFace);
    expect(levels[0]!.windows).toHaveLength(1);
    for (let face = minFace; face < h; face *= 1.3) {
      // Some level sees this face at ≥ 16/1.25 detector px and accepts its size…
      const ok = levels.filter((l) => l.maxFacePx >= face && (face * 256) / l.windowPx >= MIN_FACE_DETECTOR_PX / 1.25);
      expect(ok.length, `face ${face}`).toBeGreaterThan(0);
      // …and wherever the face is, one of that level's windows contains it entirely.
      const level = ok[ok.length - 1]!;
      for (const [fx, fy] of [
        [0, 0],
        [w / 2 - face / 2, h / 3],
        [w - face, h - face],
      ] as const) {
        const inside = level.windows.some(
          (win) =>
            Math.abs(fx + face / 2 - win.cx) <= (win.size - face) / 2 + 1e-6 &&
            Math.abs(fy + face / 2 - win.cy) <= (win.size - face) / 2 + 1e-6,
        );
        expect(inside || level.maxFacePx === Infinity, `face ${face} at ${fx},${fy}`).toBe(true);
      }
    }
  });

  it('merges duplicates across windows, keeping the best score', () => {
    const c = (score: number, cx: number): Candidate => ({ score, cx, cy: 50, size: 40, keypoints: [] });
    const merged = mergeCandidates([c(0.7, 50), c(0.9, 52), c(0.8, 200)]);
    expect(merged.map((m) => m.score)).toEqual([0.9, 0.8]);
  });
});
