/**
 * Half-size copies of an image (2 × 2 box averages) for the face windows that shrink a lot into
 * their model input (window-source.ts): such a window is sampled from a copy in which it covers one
 * to two copy px per input px instead of with the warp's area average of up to 4 × 4 bilinear taps
 * per input px. A copy is filled tile by tile, only where windows are sampled (a read of every
 * pixel costs ≈ 3 ms per megapixel in JavaScript, timed with a throwaway script, more than a small face's taps), and kept while
 * the image lives; a copy's own half-size copy fills the tiles of the copy it reads first.
 */
import type { RgbImage } from './image';
import type { Window } from './warp';

/** Side of a tile of a half-size copy, in copy px (64 px of the image it halves). */
export const HALF_TILE_PX = 32;

interface HalfCopy {
  /** The half-size pixels; only filled tiles hold values. */
  readonly img: RgbImage;
  readonly from: RgbImage;
  /** 1 per filled tile, row-major. */
  readonly filled: Uint8Array;
  readonly tilesX: number;
  readonly tilesY: number;
}

// The half-size copy of an image (per thread), and the copy record of each copy's pixels (so a
// copy's own copy fills the tiles it reads first).
const copies = new WeakMap<RgbImage, HalfCopy>();
const ofPixels = new WeakMap<RgbImage, HalfCopy>();

/**
 * `img` at half its size, rounded up (an odd last row or column is averaged with itself), every
 * tile filled. Copy px (X, Y) covers image px [2X, 2X + 2) × [2Y, 2Y + 2), so image coordinates
 * map to copy coordinates by exactly ½.
 */
export function halvedCopy(img: RgbImage): RgbImage {
  const copy = copyOf(img);
  fill(copy, 0, 0, copy.tilesX, copy.tilesY);
  return copy.img;
}

/**
 * `win` of `img` in `img`'s half-size copy, with the tiles the warp reads for it filled (the
 * window's bounding box and a 2 px margin for the bilinear neighbours); the rest of the copy may
 * be unfilled, so only this window may be sampled from it.
 */
export function halvedWindow(img: RgbImage, win: Window): { img: RgbImage; win: Window } {
  const copy = copyOf(img);
  const half: Window = { cx: win.cx / 2, cy: win.cy / 2, size: win.size / 2, angleRad: win.angleRad };
  // Half the rotated square's axis-aligned extent, plus the margin, in copy px.
  const reach = (half.size / 2) * (Math.abs(Math.cos(win.angleRad)) + Math.abs(Math.sin(win.angleRad))) + 2;
  const { width, height } = copy.img;
  const x0 = Math.max(0, Math.floor(half.cx - reach));
  const y0 = Math.max(0, Math.floor(half.cy - reach));
  const x1 = Math.min(width, Math.ceil(half.cx + reach) + 1);
  const y1 = Math.min(height, Math.ceil(half.cy + reach) + 1);
  if (x0 < x1 && y0 < y1)
    fill(copy, Math.floor(x0 / HALF_TILE_PX), Math.floor(y0 / HALF_TILE_PX), Math.ceil(x1 / HALF_TILE_PX), Math.ceil(y1 / HALF_TILE_PX));
  return { img: copy.img, win: half };
}

function copyOf(img: RgbImage): HalfCopy {
  let copy = copies.get(img);
  if (!copy) {
    const width = (img.width + 1) >> 1;
    const height = (img.height + 1) >> 1;
    const pixels: RgbImage = { data: new Uint8Array(width * height * 3), width, height, channels: 3, lossy: img.lossy };
    const tilesX = Math.ceil(width / HALF_TILE_PX);
    const tilesY = Math.ceil(height / HALF_TILE_PX);
    copy = { img: pixels, from: img, filled: new Uint8Array(tilesX * tilesY), tilesX, tilesY };
    copies.set(img, copy);
    ofPixels.set(pixels, copy);
  }
  return copy;
}

// Fills the unfilled tiles [tx0, tx1) × [ty0, ty1) of `copy`, after the tiles of the copy it halves.
function fill(copy: HalfCopy, tx0: number, ty0: number, tx1: number, ty1: number): void {
  const parent = ofPixels.get(copy.from);
  // A tile of this copy reads 2 × 2 tiles of the copy it halves (tiles have the same side in px).
  if (parent) fill(parent, 2 * tx0, 2 * ty0, Math.min(parent.tilesX, 2 * tx1), Math.min(parent.tilesY, 2 * ty1));
  for (let ty = ty0; ty < ty1; ty++)
    for (let tx = tx0; tx < tx1; tx++) {
      const i = ty * copy.tilesX + tx;
      if (copy.filled[i]) continue;
      halveTile(copy, tx, ty);
      copy.filled[i] = 1;
    }
}

// Rounded means of the 2 × 2 blocks of one tile; an odd last row or column pairs with itself.
function halveTile(copy: HalfCopy, tx: number, ty: number): void {
  const { width, height, data } = copy.from;
  const out = copy.img.data;
  const outWidth = copy.img.width;
  const stride = width * 3;
  const xEnd = Math.min(outWidth, (tx + 1) * HALF_TILE_PX);
  const yEnd = Math.min(copy.img.height, (ty + 1) * HALF_TILE_PX);
  for (let y = ty * HALF_TILE_PX; y < yEnd; y++) {
    const top = 2 * y * stride;
    const bottom = Math.min(2 * y + 1, height - 1) * stride;
    let o = (y * outWidth + tx * HALF_TILE_PX) * 3;
    for (let x = tx * HALF_TILE_PX; x < xEnd; x++) {
      const left = 6 * x;
      const right = 2 * x + 1 < width ? left + 3 : left;
      const a = top + left;
      const b = top + right;
      const c = bottom + left;
      const d = bottom + right;
      // + 2 before the division by 4: the rounded mean.
      out[o++] = (data[a]! + data[b]! + data[c]! + data[d]! + 2) >> 2;
      out[o++] = (data[a + 1]! + data[b + 1]! + data[c + 1]! + data[d + 1]! + 2) >> 2;
      out[o++] = (data[a + 2]! + data[b + 2]! + data[c + 2]! + data[d + 2]! + 2) >> 2;
    }
  }
}
