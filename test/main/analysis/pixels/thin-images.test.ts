// Thin images (banners, strips) keep enough rows in their statistics copies. By the longer side
// alone a 50:1 strip's 160 px field was 160 × 3 px: one row in three was an edge, and a smooth
// red-to-blue strip was "a building" (0.70) from those "straight edges". Real pixels through
// measurePixels, and real models through the analyze service, on images made here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { FIELD_SIDE_PX, statisticsScale, THIN_IMAGE } from '../../../../src-main/analysis/pixels';
import { decodeImage } from '../../../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../../../src-main/intake';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { fixture } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

const engine = createEngine();
const service = createAnalyzeService({ runModel: runnerOf(engine), loader: createImageLoader(intakeOptions('desktop')) });
const dir = mkdtempSync(join(tmpdir(), 'picscan-thin-'));
afterAll(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A JPEG of w×h px, red at the top fading to blue at the bottom. */
async function verticalGradient(name: string, w: number, h: number): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  const file = join(dir, name);
  await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toFile(file);
  return file;
}

describe('statistics copies of thin images', () => {
  it('shrink usual images by their longer side and keep a thin one a short side of side / maxAspect, within side² px', () => {
    expect(statisticsScale(1600, 1200, FIELD_SIDE_PX) * 1600).toBeCloseTo(FIELD_SIDE_PX);
    expect(statisticsScale(1000, 200, FIELD_SIDE_PX) * 1000).toBeCloseTo(FIELD_SIDE_PX); // 5:1, not thin
    expect(statisticsScale(100, 80, FIELD_SIDE_PX)).toBe(1); // never upscales
    // A 728 × 90 banner: 259 × 32 rather than 160 × 20.
    expect(statisticsScale(728, 90, FIELD_SIDE_PX) * 90).toBeCloseTo(FIELD_SIDE_PX / THIN_IMAGE.maxAspect);
    // A 50:1 strip: the area bound holds (≈ 1 131 × 23 rather than 160 × 3).
    const s = statisticsScale(15000, 300, FIELD_SIDE_PX);
    expect(15000 * s * 300 * s).toBeCloseTo(FIELD_SIDE_PX ** 2);
    expect(300 * s).toBeGreaterThan(20);
  });

  it('a smooth 50:1 strip has no straight edges and is no building', async () => {
    const file = await verticalGradient('strip.jpg', 15000, 300);
    const img = await decodeImage(new Uint8Array(await sharp(file).toBuffer()), { maxPixels: 5e7 });
    const pixels = await measurePixels(img);
    expect(pixels.scene.straightEdges).toBe(0); // 0.33 with the 160 × 3 field
    const { data } = await service.analyze(file, { features: ['Description', 'Categories', 'Tags'] });
    expect(data.description!.captions[0]!.text).not.toMatch(/building/);
    expect(data.categories!.map((c) => c.name).filter((n) => n.startsWith('building_'))).toEqual([]);
  });

  it('a banner-shaped crop of a photo keeps its subject', async () => {
    // 900 × 150 (6:1) from the middle of the cat photo: the cat's face across the strip.
    const file = join(dir, 'cat-banner.jpg');
    await sharp(fixture('cat_chelsea.jpg')).resize(900).extract({ left: 0, top: 150, width: 900, height: 150 }).jpeg().toFile(file);
    const { data } = await service.analyze(file, { features: ['Tags'] });
    expect(data.tags!.map((t) => t.name)).toContain('cat');
  });
});
