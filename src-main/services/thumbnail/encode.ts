/**
 * Cuts, scales and encodes a thumbnail. sharp is used here directly because the thumbnail's
 * reply is an encoded file (JPEG or PNG) of exactly the requested size, which the inference
 * layer's preview helper (WebP/JPEG, aspect kept) does not make.
 */
import sharp from 'sharp';
import type { RgbImage } from '../../inference';
import type { CropRect } from './crop-geometry';

/** Output formats: the input's own (JPEG stays JPEG, PNG stays PNG). */
export type ThumbnailFormat = 'Jpeg' | 'Png';

/** JPEG quality of thumbnails (libjpeg scale 1..100); PNG is lossless. */
export const THUMBNAIL_JPEG_QUALITY = 85;

/** MIME type of each output format. */
export const THUMBNAIL_MIME: Readonly<Record<ThumbnailFormat, 'image/jpeg' | 'image/png'>> = { Jpeg: 'image/jpeg', Png: 'image/png' };

/**
 * Extracts `crop` from the decoded pixels, scales it to exactly `width × height` (Lanczos; the
 * crop already has the target aspect ratio, up to one pixel of rounding) and encodes it.
 */
export async function encodeThumbnail(
  img: RgbImage,
  crop: CropRect,
  width: number,
  height: number,
  format: ThumbnailFormat,
): Promise<Uint8Array> {
  const pipeline = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .extract(crop)
    .resize({ width, height, fit: 'fill', kernel: 'lanczos3' });
  const out = format === 'Jpeg' ? pipeline.jpeg({ quality: THUMBNAIL_JPEG_QUALITY }) : pipeline.png();
  const buf = await out.toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
