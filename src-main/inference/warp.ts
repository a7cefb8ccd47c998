/**
 * Affine resampling of an `RgbImage` window straight into a model input tensor: one pass does
 * crop, rotation, scaling, padding and normalisation (no intermediate images).
 */
import type { RgbImage } from './image';

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
 * (k ≤ 4; avoids aliasing when a 4000 px window shrinks to 256 px). Outside the image samples
 * are 0 (black) before normalisation, matching a zero-padded letterbox.
 */
export function warpToTensor(img: RgbImage, win: Window, t: WarpTarget, out?: Float32Array): Float32Array {
  const side = t.side;
  const dst = out ?? new Float32Array(side * side * t.channels);
  const step = win.size / side;
  const taps = Math.max(1, Math.min(4, Math.floor(step / 2) + 1));
  const c = Math.cos(win.angleRad);
  const s = Math.sin(win.angleRad);
  const plane = side * side;
  const inv = 1 / (taps * taps);
  const { width, height, data } = img;
  // Image position of output (0, 0)'s first tap, and per-step increments along u, v and taps.
  const half = side / 2;
  const ux = c * step;
  const uy = s * step;
  const vx = -s * step;
  const vy = c * step;
  const tx = ux / taps;
  const ty = uy / taps;
  const sx = vx / taps;
  const sy = vy / taps;
  const x00 = win.cx + (0.5 / taps - half) * (ux + vx) - 0.5;
  const y00 = win.cy + (0.5 / taps - half) * (uy + vy) - 0.5;
  for (let v = 0; v < side; v++) {
    for (let u = 0; u < side; u++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const bx = x00 + u * ux + v * vx;
      const by = y00 + u * uy + v * vy;
      for (let j = 0; j < taps; j++) {
        for (let i = 0; i < taps; i++) {
          const x = bx + i * tx + j * sx;
          const y = by + i * ty + j * sy;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const fx = x - x0;
          const fy = y - y0;
          if (x0 >= 0 && y0 >= 0 && x0 + 1 < width && y0 + 1 < height) {
            // Fast path: all four neighbours inside (almost every sample).
            const o00 = (y0 * width + x0) * 3;
            const o10 = o00 + 3;
            const o01 = o00 + width * 3;
            const o11 = o01 + 3;
            const w00 = (1 - fx) * (1 - fy);
            const w10 = fx * (1 - fy);
            const w01 = (1 - fx) * fy;
            const w11 = fx * fy;
            r += w00 * data[o00]! + w10 * data[o10]! + w01 * data[o01]! + w11 * data[o11]!;
            g += w00 * data[o00 + 1]! + w10 * data[o10 + 1]! + w01 * data[o01 + 1]! + w11 * data[o11 + 1]!;
            b += w00 * data[o00 + 2]! + w10 * data[o10 + 2]! + w01 * data[o01 + 2]! + w11 * data[o11 + 2]!;
            continue;
          }
          // Edge path: neighbours outside the image contribute 0.
          for (let dy = 0; dy < 2; dy++) {
            const yy = y0 + dy;
            if (yy < 0 || yy >= height) continue;
            const wy = dy === 0 ? 1 - fy : fy;
            const row = yy * width;
            for (let dx = 0; dx < 2; dx++) {
              const xx = x0 + dx;
              if (xx < 0 || xx >= width) continue;
              const w = wy * (dx === 0 ? 1 - fx : fx);
              const o = (row + xx) * 3;
              r += w * data[o]!;
              g += w * data[o + 1]!;
              b += w * data[o + 2]!;
            }
          }
        }
      }
      r *= inv;
      g *= inv;
      b *= inv;
      const p = v * side + u;
      if (t.channels === 1) {
        dst[p] = (0.299 * r + 0.587 * g + 0.114 * b) * t.scale + t.offset;
      } else if (t.layout === 'nhwc') {
        dst[p * 3] = r * t.scale + t.offset;
        dst[p * 3 + 1] = g * t.scale + t.offset;
        dst[p * 3 + 2] = b * t.scale + t.offset;
      } else {
        dst[p] = r * t.scale + t.offset;
        dst[plane + p] = g * t.scale + t.offset;
        dst[2 * plane + p] = b * t.scale + t.offset;
      }
    }
  }
  return dst;
}
