import sharp from 'sharp';
import { fixture } from './paths';

/** Fixture photos and the phone-camera sizes [width, height] they are enlarged to (7.7–12.2 MP). */
export const LARGE_PHOTOS: ReadonlyArray<readonly [string, number, number]> = [
  ['astronaut_eileen_collins.jpg', 3000, 3000],
  ['biden_portrait.jpg', 3000, 3000],
  ['family_six_faces.jpg', 4032, 3024],
  ['grace_hopper.jpg', 2560, 3000],
  ['obama_biden_two_people.jpg', 4000, 2667],
  ['obama_portrait.jpg', 2400, 3000],
  ['tom_cruise.jpg', 3024, 4032],
];

/**
 * Fixture portraits enlarged 2–3× to sizes common on the web (1.3–4.1 MP), below the working copy's
 * threshold (2 560 px): their faces are 500–1 500 px windows sampled from the photo itself.
 */
export const HIGH_RES_PORTRAITS: ReadonlyArray<readonly [string, number, number]> = [
  ['astronaut_eileen_collins.jpg', 1536, 1536],
  ['biden_portrait.jpg', 1800, 1800],
  ['grace_hopper.jpg', 1536, 1800],
  ['obama_portrait.jpg', 1365, 1707],
  ['tom_cruise.jpg', 1130, 1600],
  ['tom_cruise.jpg', 1695, 2400],
];

/** A fixture enlarged to `width × height` (lanczos3) as a JPEG q90, as a phone would save it. */
export async function enlargedJpeg(file: string, width: number, height: number): Promise<Buffer> {
  return sharp(fixture(file)).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).jpeg({ quality: 90 }).toBuffer();
}

/**
 * Panoramas and banners composed from fixture photos, [file, width, height]: the photo scaled to
 * `height` and repeated side by side to `width` (3:1 to 4:1, 1.1–36 MP), as the wide-image rules
 * see them (docs/analysis.md "Wide images").
 */
export const PANORAMAS: ReadonlyArray<readonly [string, number, number]> = [
  ['coffee_cup.jpg', 1800, 600],
  ['cat_chelsea.jpg', 2700, 900],
  ['family_six_faces.jpg', 2400, 600],
  ['obama_biden_two_people.jpg', 4800, 1600],
  ['colosseum.jpg', 12000, 3000],
];

/** `file` (a fixture name or a path) scaled to `height` (default: its own) and repeated side by side to `width` px (default: `copies` whole copies), raw RGB. */
async function repeatedRow(file: string, o: { copies?: number; width?: number; height?: number }) {
  const { data, info } = await sharp(file.includes('/') ? file : fixture(file))
    .resize(o.height ? { height: o.height, kernel: 'lanczos3' } : undefined)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const width = o.width ?? info.width * (o.copies ?? 3);
  const height = info.height;
  const row = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x += info.width) {
      const n = Math.min(info.width, width - x);
      data.copy(row, (y * width + x) * 3, y * info.width * 3, (y * info.width + n) * 3);
    }
  return sharp(row, { raw: { width, height, channels: 3 } });
}

/** A fixture scaled to `height` and repeated side by side to `width` px, as a JPEG q90. */
export async function sideBySideJpeg(file: string, width: number, height: number): Promise<Buffer> {
  return (await repeatedRow(file, { width, height })).jpeg({ quality: 90 }).toBuffer();
}

/** `copies` of an image (a fixture name or a path) side by side, as a PNG: a panorama whose every object is whole in one copy. */
export async function sideBySidePng(file: string, copies: number): Promise<Buffer> {
  return (await repeatedRow(file, { copies })).png().toBuffer();
}
