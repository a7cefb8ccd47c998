/**
 * Affine resampling of an `RgbImage` window straight into a model input tensor: one pass does
 * crop, rotation, scaling, padding and normalisation (no intermediate images).
 */
import type { RgbImage } from '../../inference/image';

/**
 * A square window in image px: centre, side and in-plane rotation. `angleRad` rotates the
 * sampling grid clockwise in image coordinates (y down), so content tilted clockwise by the same
 * angle comes out upright.
 */
export interface Window {
  cx: number;
  cy: number;
  /** Side of the square window in image px. */
  size: number;
  /** Rotation in radians; 0 = axis-aligned. */
  angleRad: number;
}

/** Tensor layout and value mapping for the output. */
export interface WarpTarget {
  /** Output side in px (the model input). */
  side: number;
  /** `nhwc`: `[y][x][c]`; `nchw`: `[c][y][x]`. Batch dimension 1 is implicit. */
  layout: 'nhwc' | 'nchw';
  /** value = pixel(0..255) * scale + offset; e.g. 1/127.5, −1 for [−1, 1]. */
  scale: number;
  offset: number;
  /** Channels: 3 = RGB, 1 = luma (BT.601 weights, for the emotion model). */
  channels: 1 | 3;
}

/** Maps a point of the output grid (px, 0..side) back to image px. */
export function windowToImage(win: Window, side: number, u: number, v: number): [number, number] {
  const k = win.size / side;
  const dx = (u - side / 2) * k;
  const dy = (v - side / 2) * k;
  const c = Math.cos(win.angleRad);
  const s = Math.sin(win.angleRad);
  return [win.cx + c * dx - s * dy, win.cy + s * dx + c * dy];
}

/** Maps image px into the output grid of `win` (inverse of `windowToImage`). */
export function imageToWindow(win: Window, side: number, x: number, y: number): [number, number] {
  const k = side / win.size;
  const dx = x - win.cx;
  const dy = y - win.cy;
  const c = Math.cos(win.angleRad);
  const s = Math.sin(win.angleRad);
  return [(c * dx + s * dy) * k + side / 2, (-s * dx + c * dy) * k + side / 2];
}

/**
 * Samples `win` from `img` into a Float32Array of `side² × channels` values. Bilinear when the
 * window is at most 2× the output; otherwise an area average over a k×k grid per output pixel
 * (avoids aliasing when a 4000 px window shrinks to 192 px). Outside the image samples are 0
 * (black) before normalisation, matching a zero-padded letterbox.
 */
export function warpToTensor(img: RgbImage, win: Window, t: WarpTarget, out?: Float32Array): Float32Array {
  const side = t.side;
  const dst = out ?? new Float32Array(side * side * t.channels);
  const step = win.size / side;
  const taps = Math.max(1, Math.min(4, Math.floor(step / 2) + 1));
  const c = Math.cos(win.angleRad);
  const s = Math.sin(win.angleRad);
  const rgb = [0, 0, 0];
  const plane = side * side;
  for (let v = 0; v < side; v++) {
    for (let u = 0; u < side; u++) {
      rgb[0] = rgb[1] = rgb[2] = 0;
      for (let j = 0; j < taps; j++) {
        for (let i = 0; i < taps; i++) {
          const dx = (u + (i + 0.5) / taps - side / 2) * step;
          const dy = (v + (j + 0.5) / taps - side / 2) * step;
          addBilinear(img, win.cx + c * dx - s * dy - 0.5, win.cy + s * dx + c * dy - 0.5, rgb);
        }
      }
      const n = taps * taps;
      const p = v * side + u;
      if (t.channels === 1) {
        dst[p] = ((0.299 * rgb[0]! + 0.587 * rgb[1]! + 0.114 * rgb[2]!) / n) * t.scale + t.offset;
      } else if (t.layout === 'nhwc') {
        for (let ch = 0; ch < 3; ch++) dst[p * 3 + ch] = (rgb[ch]! / n) * t.scale + t.offset;
      } else {
        for (let ch = 0; ch < 3; ch++) dst[ch * plane + p] = (rgb[ch]! / n) * t.scale + t.offset;
      }
    }
  }
  return dst;
}

// Adds the bilinear sample at pixel-centre coordinates (x, y) to acc; outside pixels count as 0.
function addBilinear(img: RgbImage, x: number, y: number, acc: number[]): void {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const { width, height, data } = img;
  for (let dy = 0; dy < 2; dy++) {
    const yy = y0 + dy;
    if (yy < 0 || yy >= height) continue;
    const wy = dy === 0 ? 1 - fy : fy;
    for (let dx = 0; dx < 2; dx++) {
      const xx = x0 + dx;
      if (xx < 0 || xx >= width) continue;
      const w = wy * (dx === 0 ? 1 - fx : fx);
      if (w === 0) continue;
      const o = (yy * width + xx) * 3;
      acc[0]! += w * data[o]!;
      acc[1]! += w * data[o + 1]!;
      acc[2]! += w * data[o + 2]!;
    }
  }
}
