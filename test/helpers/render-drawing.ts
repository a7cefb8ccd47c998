// The test drawings (test/fixtures/drawings, public-domain SVGs) rendered as eval:unseen renders
// Open Clip Art: longer side 256 px, on white, by sharp, decoded as the product decodes a file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';
import { lineArtSvg } from '../eval/openclipart';
import { repoRoot } from './paths';

/** Longer side of a rendered drawing, px. */
export const DRAWING_PX = 256;

/** An SVG of test/fixtures/drawings rendered to RGB; `lineArt`: restyled as a colouring-book page (lineArtSvg). */
export async function renderDrawing(file: string, options: { lineArt?: boolean } = {}): Promise<RgbImage> {
  const source = readFileSync(join(repoRoot, 'test/fixtures/drawings', file));
  const svg = options.lineArt ? Buffer.from(lineArtSvg(source.toString('utf8'))) : source;
  const meta = await sharp(svg).metadata();
  const density = Math.min(2400, (72 * DRAWING_PX) / Math.max(meta.width ?? DRAWING_PX, meta.height ?? DRAWING_PX));
  const png = await sharp(svg, { density })
    .resize(DRAWING_PX, DRAWING_PX, { fit: 'inside' })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
  return decodeImage(new Uint8Array(png), { maxPixels: 1e7 });
}
