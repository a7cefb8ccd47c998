/**
 * Synthetic test images built from the real fixtures with sharp: a collage of small faces
 * (known boxes) and rotated copies. Faces are cut with a generous margin so each tile looks like
 * a small photo of a person, not a floating face.
 */
import sharp from 'sharp';
import { fixture } from '../../../helpers/paths';
import type { TruthFace } from './fixture-eval';

/** Portrait sources with their truth boxes (from the fixture manifest). */
const SOURCES: Array<{ file: string; box: TruthFace }> = [
  { file: 'obama_portrait.jpg', box: { left: 177, top: 51, width: 141, height: 141 } },
  { file: 'biden_portrait.jpg', box: { left: 204, top: 106, width: 245, height: 245 } },
  { file: 'grace_hopper.jpg', box: { left: 149, top: 102, width: 229, height: 229 } },
  { file: 'astronaut_eileen_collins.jpg', box: { left: 177, top: 67, width: 94, height: 94 } },
  { file: 'tom_cruise.jpg', box: { left: 75, top: 215, width: 450, height: 500 } },
];

/**
 * A `width × height` JPEG collage with one face per cell in a `cols × rows` grid; face sides
 * cycle through `faceSidesPx`. Returns the bytes and the truth boxes in collage px.
 */
export async function faceCollage(opts: {
  width: number;
  height: number;
  cols: number;
  rows: number;
  faceSidesPx: number[];
}): Promise<{ bytes: Buffer; faces: TruthFace[] }> {
  const cellW = Math.floor(opts.width / opts.cols);
  const cellH = Math.floor(opts.height / opts.rows);
  const layers: sharp.OverlayOptions[] = [];
  const faces: TruthFace[] = [];
  let k = 0;
  for (let r = 0; r < opts.rows; r++) {
    for (let c = 0; c < opts.cols; c++, k++) {
      const src = SOURCES[k % SOURCES.length]!;
      const side = opts.faceSidesPx[k % opts.faceSidesPx.length]!;
      const meta = await sharp(fixture(src.file)).metadata();
      // Crop 2× the face box around its centre (clamped), scale so the face is `side` px.
      const m = src.box.width;
      const left = Math.max(0, Math.round(src.box.left - m / 2));
      const top = Math.max(0, Math.round(src.box.top - m / 2));
      const w = Math.min(meta.width! - left, 2 * m);
      const h = Math.min(meta.height! - top, 2 * m);
      const scale = side / m;
      const tw = Math.max(1, Math.min(cellW, Math.round(w * scale)));
      const th = Math.max(1, Math.min(cellH, Math.round(h * scale)));
      const tile = await sharp(fixture(src.file)).extract({ left, top, width: w, height: h }).resize(tw, th, { fit: 'fill' }).toBuffer();
      const x = c * cellW + Math.floor((cellW - tw) / 2);
      const y = r * cellH + Math.floor((cellH - th) / 2);
      layers.push({ input: tile, left: x, top: y });
      faces.push({
        left: x + (src.box.left - left) * scale,
        top: y + (src.box.top - top) * scale,
        width: side,
        height: src.box.height * scale,
      });
    }
  }
  const bytes = await sharp({ create: { width: opts.width, height: opts.height, channels: 3, background: { r: 128, g: 140, b: 120 } } })
    .composite(layers)
    .jpeg({ quality: 90 })
    .toBuffer();
  return { bytes, faces };
}

/** A fixture rotated clockwise by `deg` (multiples of 90 keep every pixel) as PNG bytes. */
export async function rotatedFixture(file: string, deg: number): Promise<Buffer> {
  return sharp(fixture(file)).rotate(deg, { background: '#808080' }).png().toBuffer();
}

/**
 * A fixture shrunk by `scale` and pasted at (10, 10) on a grey canvas twice its size (≥ 400×300),
 * as PNG bytes: a real group photo whose faces are small relative to the image. Returns the
 * truth boxes mapped into the canvas.
 */
export async function shrunkenFixture(
  file: string,
  truth: readonly TruthFace[],
  scale: number,
): Promise<{ bytes: Buffer; faces: TruthFace[] }> {
  const meta = await sharp(fixture(file)).metadata();
  const w = Math.round(meta.width! * scale);
  const h = Math.round(meta.height! * scale);
  const small = await sharp(fixture(file)).resize(w, h).toBuffer();
  const bytes = await sharp({
    create: { width: Math.max(2 * w, 400), height: Math.max(2 * h, 300), channels: 3, background: { r: 119, g: 119, b: 119 } },
  })
    .composite([{ input: small, left: 10, top: 10 }])
    .png()
    .toBuffer();
  return {
    bytes,
    faces: truth.map((f) => ({ left: 10 + f.left * scale, top: 10 + f.top * scale, width: f.width * scale, height: f.height * scale })),
  };
}

/**
 * Paints dark lenses (near-black ellipses joined by a bridge) over the given eye centres of a
 * fixture: synthetic sunglasses. Returns PNG bytes.
 */
export async function withSunglasses(file: string, eyes: Array<{ left: [number, number]; right: [number, number] }>): Promise<Buffer> {
  const meta = await sharp(fixture(file)).metadata();
  const shapes = eyes
    .map(({ left, right }) => {
      const ied = Math.hypot(left[0] - right[0], left[1] - right[1]);
      const rx = ied * 0.42;
      const ry = ied * 0.3;
      const lens = ([x, y]: [number, number]): string => `<ellipse cx="${x}" cy="${y}" rx="${rx}" ry="${ry}" fill="#161616"/>`;
      return `${lens(left)}${lens(right)}<line x1="${right[0]}" y1="${right[1] - ry * 0.6}" x2="${left[0]}" y2="${left[1] - ry * 0.6}" stroke="#161616" stroke-width="${ied * 0.06}"/>`;
    })
    .join('');
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}">${shapes}</svg>`);
  return sharp(fixture(file))
    .composite([{ input: svg }])
    .png()
    .toBuffer();
}

/** Covers the lower `fraction` of a truth face box (and a margin around it) with a flat blue block: a half-occluded face. PNG bytes. */
export async function occludedFixture(file: string, box: TruthFace, fraction: number): Promise<Buffer> {
  const meta = await sharp(fixture(file)).metadata();
  const top = Math.round(box.top + box.height * (1 - fraction));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${meta.height}"><rect x="${box.left - 20}" y="${top}" width="${box.width + 40}" height="${Math.round(box.height * fraction) + 60}" fill="#3a5a8a"/></svg>`;
  return sharp(fixture(file))
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toBuffer();
}
