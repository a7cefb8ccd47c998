// Plain backdrops for cut-out photos and drawings with an alpha channel (Tux Paint's stamps): the
// studio card, dark table or grey sweep a product shot is taken on, instead of a white page. The
// photo probe learns from stamps outside eval:unseen on them (tooling/image-type/probe-data.ts),
// and eval:unseen rates its labelled stamps on them.
import sharp from 'sharp';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';

/**
 * The backdrops, taken in turn: black, dark and mid grey, a light grey sweep (`null`: a vertical
 * gradient from #aaa to white), a slate blue and a beige card.
 */
export const BACKDROPS: readonly (string | null)[] = ['#000000', '#303030', '#9a9a9a', null, '#2f4f6f', '#c8b89a'];

/** The canvas (px) and the share of each side the figure may take on it: a web page's small product photo. */
export const BACKDROP_CANVAS = { width: 320, height: 224, fill: 0.85 } as const;

/** The image file (its alpha kept) centred on a backdrop canvas, as a JPEG q85. */
export async function onBackdrop(file: string | Uint8Array, backdrop: string | null): Promise<RgbImage> {
  const { width: w, height: h, fill } = BACKDROP_CANVAS;
  const figure = await sharp(file)
    .resize(Math.round(w * fill), Math.round(h * fill), { fit: 'inside' })
    .png()
    .toBuffer({ resolveWithObject: true });
  const base = backdrop
    ? sharp({ create: { width: w, height: h, channels: 3, background: backdrop } })
    : sharp(verticalSweep(w, h), { raw: { width: w, height: h, channels: 3 } });
  const jpeg = await base
    .composite([{ input: figure.data, left: Math.round((w - figure.info.width) / 2), top: Math.round((h - figure.info.height) / 2) }])
    .jpeg({ quality: 85 })
    .toBuffer();
  return decodeImage(new Uint8Array(jpeg), { maxPixels: 100e6 });
}

/** RGB pixels of a grey sweep: #aaa at the top to white at the bottom. */
function verticalSweep(w: number, h: number): Buffer {
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) px.fill(Math.round(170 + (85 * y) / (h - 1)), y * w * 3, (y + 1) * w * 3);
  return px;
}
