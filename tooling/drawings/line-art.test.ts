// The line-art restyling of Open Clip Art drawings (the drawing vocabulary's second rendering of
// each colour drawing), rendered by sharp as the table's tools render the collection.
import { describe, expect, it } from 'vitest';
import { lineArtSvg, renderDrawingSvg as renderSvg } from '../../test/eval/openclipart';

/** A red disc filled by a presentation attribute, a blue square by an inline style, no strokes. */
const SVG =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">' +
  '<circle cx="50" cy="50" r="40" fill="#ff0000"/><rect x="110" y="10" width="80" height="80" style="fill:#0000ff;stroke:none"/></svg>';

const pixel = (img: { width: number; data: Uint8Array }, x: number, y: number): number[] => {
  const i = (y * img.width + x) * 3;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
};

describe('line art', () => {
  it('fills every shape white and outlines it in black, whatever its own style', async () => {
    const colour = await renderSvg(new Uint8Array(Buffer.from(SVG)));
    const line = await renderSvg(new Uint8Array(Buffer.from(lineArtSvg(SVG))));
    expect([colour.width, colour.height]).toEqual([256, 128]);
    expect([line.width, line.height]).toEqual([256, 128]);
    // The colour rendering: a red disc and a blue square (centres at 64,64 and 192,64 after the 1.28× scale).
    expect(pixel(colour, 64, 64)).toEqual([255, 0, 0]);
    expect(pixel(colour, 192, 64)).toEqual([0, 0, 255]);
    // The line art: white insides, no colour anywhere, and dark outlines where the shapes' edges are.
    expect(pixel(line, 64, 64)).toEqual([255, 255, 255]);
    expect(pixel(line, 192, 64)).toEqual([255, 255, 255]);
    let coloured = 0;
    let dark = 0;
    for (let i = 0; i < line.data.length; i += 3) {
      const [r, g, b] = [line.data[i]!, line.data[i + 1]!, line.data[i + 2]!];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 16) coloured++;
      if (r + g + b < 3 * 128) dark++;
    }
    expect(coloured).toBe(0);
    // Two outlines of ≈ 1.5 px: the circle's ≈ 2π·51 px and the square's 4·102 px, about 700–1 800 dark pixels.
    expect(dark).toBeGreaterThan(500);
    expect(dark).toBeLessThan(2000);
    expect(Math.min(...pixel(line, 64, 64 - 51))).toBeLessThan(128);
  });

  it('leaves a file without an svg element as it is', () => {
    expect(lineArtSvg('<html></html>')).toBe('<html></html>');
  });
});
