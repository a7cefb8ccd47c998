// A thumbnail file as a server makes one, for tests that analyze small copies of fixtures.
import { basename, join } from 'node:path';
import sharp from 'sharp';

/** Writes a PNG copy of `source`, `side` px on its longer side (libvips' Lanczos-3), into `dir`; returns its path. */
export async function writeThumbnail(source: string, side: number, dir: string): Promise<string> {
  const out = join(dir, `${side}-${basename(source)}.png`);
  await sharp(source).resize(side, side, { fit: 'inside' }).png().toFile(out);
  return out;
}

/**
 * The people crops the classifier reads most like animals, as thumbnails (test/eval/thumbnail-faces.ts):
 * 46-human-92, a dark-haired man, as a Gordon setter (animal classes up to 0.70) and 46-human-73, a man
 * with glasses, as a titi or an indri (0.3–0.4). Both operations must keep their face at these sides.
 */
export const PEOPLE_READ_AS_ANIMALS: readonly (readonly [file: string, side: number])[] = [
  ['46-human-92.jpg', 112],
  ['46-human-92.jpg', 96],
  ['46-human-73.jpg', 112],
  ['46-human-73.jpg', 96],
];
