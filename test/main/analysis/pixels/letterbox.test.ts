// Letterbox and pillarbox bars are no part of the picture: the pixel statistics read the picture
// between them. Before, a letterboxed photo of the Colosseum lost its sky (the sky must touch the
// top row) and its caption ("a building" → "an image"). Real fixture photos on black canvases made
// here, through letterboxContent, measurePixels and the analyze service with the real models.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { letterboxContent } from '../../../../src-main/analysis/pixels';
import { decodeImage } from '../../../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../../../src-main/intake';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { fixture } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

const engine = createEngine();
const service = createAnalyzeService({ runModel: runnerOf(engine), loader: createImageLoader(intakeOptions('desktop')) });
const dir = mkdtempSync(join(tmpdir(), 'picscan-letterbox-'));
afterAll(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const BLACK = { r: 0, g: 0, b: 0 };

/** A fixture photo `w` px wide with black bars of `top`/`bottom`/`left`/`right` px around it, as a JPEG. */
async function barred(
  name: string,
  photo: string,
  w: number,
  bars: { top?: number; bottom?: number; left?: number; right?: number },
): Promise<string> {
  const file = join(dir, name);
  await sharp(fixture(photo))
    .resize(w)
    .extend({ top: 0, bottom: 0, left: 0, right: 0, ...bars, background: BLACK })
    .jpeg({ quality: 90 })
    .toFile(file);
  return file;
}

const decoded = async (file: string) => decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 5e7 });

describe('letterboxContent', () => {
  it('finds the picture between bars above and below, or left and right', async () => {
    // colosseum.jpg is 600 × 399: at 800 px wide 800 × 532, with 134 px bars it fills 800 × 800.
    const box = letterboxContent(await decoded(await barred('letterbox.jpg', 'colosseum.jpg', 800, { top: 134, bottom: 134 })));
    expect(box).toBeDefined();
    expect(Math.abs(box!.top - 134)).toBeLessThanOrEqual(2);
    expect(Math.abs(box!.height - 532)).toBeLessThanOrEqual(4);
    expect(box!.width).toBe(800);
    // A portrait 424 × 600 in a 16:9 frame (1 067 × 600): 39.7 % of its width, under the first
    // version's 40 % minimum (a 9:16 phone video in such a frame is 32 %).
    const pillar = letterboxContent(await decoded(await barred('pillarbox.jpg', 'tom_cruise.jpg', 424, { left: 321, right: 322 })));
    expect(pillar).toBeDefined();
    expect(Math.abs(pillar!.left - 321)).toBeLessThanOrEqual(2);
    expect(pillar!.height).toBe(600);
  });

  it('leaves alone a photo without bars, a bar on one side only, a drawing framed on all sides, a night scene fading to black and an all-black image', async () => {
    expect(letterboxContent(await decoded(fixture('colosseum.jpg')))).toBeUndefined();
    expect(letterboxContent(await decoded(await barred('one-bar.jpg', 'colosseum.jpg', 800, { top: 134 })))).toBeUndefined();
    const framed = join(dir, 'framed.png');
    await sharp(fixture('horse_silhouette_clipart.png'))
      .extend({ top: 60, bottom: 60, left: 60, right: 60, background: BLACK })
      .png()
      .toFile(framed);
    expect(letterboxContent(await decoded(framed))).toBeUndefined();
    // A night scene: black sky and foreground fading into a lit middle. The black rows pass as
    // bars, but the picture does not start sharply at them: its darkness is its own.
    const { data, info } = await sharp(fixture('colosseum.jpg'))
      .resize(800, 800, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const fade = (y: number): number => Math.min(1, Math.max(0, Math.min((y - 200) / 200, (600 - y) / 200)));
    for (let y = 0; y < info.height; y++)
      for (let i = y * info.width * 3; i < (y + 1) * info.width * 3; i++) data[i] = Math.round(data[i]! * fade(y));
    const night = join(dir, 'night.png');
    await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .png()
      .toFile(night);
    const nightImg = await decoded(night);
    expect(nightImg.data.subarray(0, 800 * 3 * 100).every((v) => v === 0)).toBe(true); // black rows above
    expect(letterboxContent(nightImg)).toBeUndefined();
    const black = join(dir, 'black.png');
    await sharp({ create: { width: 400, height: 300, channels: 3, background: BLACK } })
      .png()
      .toFile(black);
    expect(letterboxContent(await decoded(black))).toBeUndefined();
  });
});

describe('a letterboxed photo', () => {
  it('keeps its sky, its caption and its brightness', async () => {
    const file = await barred('colosseum-letterbox.jpg', 'colosseum.jpg', 800, { top: 134, bottom: 134 });
    const pixels = await measurePixels(await decoded(file));
    const original = await measurePixels(await decoded(fixture('colosseum.jpg')));
    expect(pixels.scene.sky).toBeGreaterThan(0.5 * original.scene.sky); // 0 when the bars were read
    expect(Math.abs(pixels.scene.dark - original.scene.dark)).toBeLessThan(0.05); // 0.36 when the bars were read
    const { data } = await service.analyze(file, { features: ['Tags', 'Description'] });
    expect(data.description!.captions[0]!.text).toBe('a building');
    expect(data.tags!.map((t) => t.name)).toContain('sky');
  });
});
