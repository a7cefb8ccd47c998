// A thumbnail file as a server makes one, for tests that analyze small copies of fixtures.
import { basename, join } from 'node:path';
import sharp from 'sharp';

/** Writes a PNG copy of `source`, `side` px on its longer side (libvips' Lanczos-3), into `dir`; returns its path. */
export async function writeThumbnail(source: string, side: number, dir: string): Promise<string> {
  const out = join(dir, `${side}-${basename(source)}.png`);
  await sharp(source).resize(side, side, { fit: 'inside' }).png().toFile(out);
  return out;
}
