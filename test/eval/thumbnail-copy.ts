// A thumbnail of an image as a server would make one: shrunk by libvips' default kernel
// (Lanczos-3) to a longer side, coded as PNG or JPEG q85, decoded again. Used by the thumbnails
// eval (thumbnails.ts) and the photo probe's thumbnails test.
import sharp from 'sharp';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';

export type ThumbnailFormat = 'png' | 'jpeg';
/** JPEG quality of a coded thumbnail. */
export const THUMBNAIL_JPEG_QUALITY = 85;

/** `img` shrunk to `side` px on its longer side (never enlarged) and coded as `format`. */
export async function thumbnailCopy(img: RgbImage, side: number, format: ThumbnailFormat): Promise<RgbImage> {
  const s = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).resize(side, side, {
    fit: 'inside',
    withoutEnlargement: true,
  });
  const coded = await (format === 'png' ? s.png() : s.jpeg({ quality: THUMBNAIL_JPEG_QUALITY })).toBuffer();
  return decodeImage(new Uint8Array(coded), { maxPixels: 100e6 });
}
