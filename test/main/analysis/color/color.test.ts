import { describe, expect, it } from 'vitest';
import { analyzeColor, chromaStats, isBlackAndWhite, nameRgb } from '../../../../src-main/analysis/color';
import { buildPixelField } from '../../../../src-main/analysis/pixels';
import { COLOR_NAMES } from '../../../../src-main/shared/spec';
import { decodeFixture, manifest } from '../fixtures';

function solid(
  w: number,
  h: number,
  rgb: (x: number, y: number) => [number, number, number],
): { data: Uint8Array; width: number; height: number } {
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(rgb(x, y), (y * w + x) * 3);
  return { data, width: w, height: h };
}

describe('colour names', () => {
  it('names canonical colours with the 12-name vocabulary', () => {
    const cases: Array<[[number, number, number], string]> = [
      [[0, 0, 0], 'Black'],
      [[255, 255, 255], 'White'],
      [[128, 128, 128], 'Gray'],
      [[220, 20, 30], 'Red'],
      [[255, 140, 0], 'Orange'],
      [[255, 230, 0], 'Yellow'],
      [[0, 150, 0], 'Green'],
      [[0, 128, 128], 'Teal'],
      [[20, 60, 220], 'Blue'],
      [[128, 0, 128], 'Purple'],
      [[255, 160, 190], 'Pink'],
      [[139, 69, 19], 'Brown'],
      [[135, 206, 235], 'Blue'],
      [[20, 30, 90], 'Blue'],
      [[210, 180, 140], 'Brown'],
    ];
    for (const [rgb, name] of cases) expect(nameRgb(...rgb), `rgb(${rgb.join(',')})`).toBe(name);
  });
});

describe('Color feature on synthetic images', () => {
  it('separates a centred subject from its surround and picks a vibrant accent', () => {
    const img = solid(100, 80, (x, y) => (Math.abs(x - 50) < 20 && Math.abs(y - 40) < 16 ? [220, 30, 30] : [255, 255, 255]));
    const c = analyzeColor(buildPixelField(img));
    expect(c.dominantColorBackground).toBe('White');
    expect(c.dominantColorForeground).toBe('Red');
    expect(c.dominantColors).toContain('White');
    expect(c.accentColor).toMatch(/^[0-9A-F]{6}$/);
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(c.accentColor.slice(i, i + 2), 16));
    expect(r).toBeGreaterThan(200); // the red square, not the white surround
    expect(g! + b!).toBeLessThan(100);
    expect(c.isBWImg).toBe(false);
  });

  it('counts greyscale and sepia-toned images as black and white, a pale colour photo not', () => {
    const grey = solid(64, 64, (x) => [x * 4, x * 4, x * 4]);
    expect(isBlackAndWhite(chromaStats(buildPixelField(grey)))).toBe(true);
    // A sepia print: one warm hue, low chroma (Lab chroma ≈ 8–14).
    const sepia = solid(64, 64, (x) => [Math.min(255, 40 + x * 3 + 14), Math.min(255, 40 + x * 3 + 4), Math.max(0, 40 + x * 3 - 8)]);
    expect(isBlackAndWhite(chromaStats(buildPixelField(sepia)))).toBe(true);
    const mixed = solid(64, 64, (x, y) => (y < 32 ? [120, 160, 220] : [150 + x, 120, 80]));
    expect(isBlackAndWhite(chromaStats(buildPixelField(mixed)))).toBe(false);
  });

  // One saturated hue on a white page passed the tint test (most pixels white, the rest one hue):
  // a blue word mark was "black and white". A toned print is toned all over, or pale.
  it('a word mark in one saturated colour on white is a colour image; a brown-toned page is black and white', async () => {
    const sharp = (await import('sharp')).default;
    const render = async (svg: string) => {
      const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      return isBlackAndWhite(chromaStats(buildPixelField({ data: new Uint8Array(data), width: info.width, height: info.height })));
    };
    const word = (fill: string, page: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="300"><rect width="100%" height="100%" fill="${page}"/><text x="320" y="190" font-size="120" font-weight="bold" text-anchor="middle" font-family="sans-serif" fill="${fill}">Picscan</text></svg>`;
    expect(await render(word('#1060c0', 'white'))).toBe(false);
    expect(await render(word('#c02020', 'white'))).toBe(false);
    // Sepia ink on sepia paper, and black on white: black and white.
    expect(await render(word('#4a3520', '#e8dcc4'))).toBe(true);
    expect(await render(word('black', 'white'))).toBe(true);
  });
});

describe('Color feature on the real fixtures', () => {
  it('gets isBWImg right on ≥ 95 % of the fixtures (incl. the grey+alpha horse)', async () => {
    let right = 0;
    const wrong: string[] = [];
    for (const m of manifest) {
      const c = analyzeColor(buildPixelField(await decodeFixture(m.file)));
      expect(COLOR_NAMES).toContain(c.dominantColorForeground);
      expect(COLOR_NAMES).toContain(c.dominantColorBackground);
      expect(c.dominantColors.length).toBeGreaterThan(0);
      expect(c.accentColor).toMatch(/^[0-9A-F]{6}$/);
      if (c.isBWImg === m.truth.isBW) right++;
      else wrong.push(m.file);
    }
    expect(right / manifest.length, `wrong: ${wrong.join(', ')}`).toBeGreaterThanOrEqual(0.95);
    const horse = analyzeColor(buildPixelField(await decodeFixture('horse_silhouette_clipart.png')));
    expect(horse.isBWImg).toBe(true);
  });
});
