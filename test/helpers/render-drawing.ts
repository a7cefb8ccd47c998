// The test drawings (test/fixtures/drawings, public-domain SVGs) rendered as eval:unseen renders
// Open Clip Art: longer side 256 px, on white, by sharp, decoded as the product decodes a file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RgbImage } from '../../src-main/inference/image';
import { lineArtSvg, renderDrawingSvg } from '../eval/openclipart';
import { repoRoot } from './paths';

/** An SVG of test/fixtures/drawings rendered to RGB; `lineArt`: restyled as a colouring-book page (lineArtSvg). */
export async function renderDrawing(file: string, options: { lineArt?: boolean } = {}): Promise<RgbImage> {
  const source = readFileSync(join(repoRoot, 'test/fixtures/drawings', file));
  return renderDrawingSvg(options.lineArt ? Buffer.from(lineArtSvg(source.toString('utf8'))) : source);
}
