// Panoramas and banners: the classifier stretches the whole image to 224 × 224, so a 3:1 image
// reached it squeezed three times over. Beyond 2.5:1 a scene is classified by windows of a usual
// photo's shape along the long side. Real models through the analyze service, on images composed
// here from the fixture photos (three copies side by side keep every object whole).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyWithFeatures } from '../../../../src-main/analysis/classifier/imagenet';
import { classifierWindows } from '../../../../src-main/analysis/wide-windows';
import { decodeImage, type ModelRunner } from '../../../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../../../src-main/intake';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { sideBySidePng } from '../../../helpers/large-photos';
import { fixture } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

describe('a panorama of three copies side by side', () => {
  const engine = createEngine();
  const service = createAnalyzeService({ runModel: runnerOf(engine), loader: createImageLoader(intakeOptions('desktop')) });
  const dir = mkdtempSync(join(tmpdir(), 'picscan-wide-'));
  afterAll(async () => {
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The image three times side by side, as a PNG file. */
  async function tripled(file: string): Promise<string> {
    const out = join(dir, `wide-${basename(file)}.png`);
    writeFileSync(out, await sideBySidePng(file, 3));
    return out;
  }

  it('keeps a wide thing on a plain background whole (a bus seen from the side), windows a wide scene', async () => {
    // The model's runs counted on the real engine: the whole image (pooled features) + one per view.
    let runs = 0;
    const counting: ModelRunner = { spec: (id) => engine.spec(id), run: (id, feeds, signal) => (runs++, engine.run(id, feeds, signal)) };
    const page = join(dir, 'page.png');
    const { data, info } = await sharp(fixture('rocket_launchpad.jpg')).resize(200).raw().toBuffer({ resolveWithObject: true });
    await sharp({ create: { width: 900, height: info.height + 40, channels: 3, background: '#ffffff' } })
      .composite(
        [0, 1, 2].map((i) => ({
          input: data,
          raw: { width: info.width, height: info.height, channels: 3 as const },
          left: 50 + i * 270,
          top: 20,
        })),
      )
      .png()
      .toFile(page);
    const onPage = await decodeImage(readFileSync(page), { maxPixels: 50_000_000 });
    await classifyWithFeatures(onPage, counting);
    expect(runs).toBe(1);
    runs = 0;
    const scene = await decodeImage(readFileSync(await tripled(fixture('rocket_launchpad.jpg'))), { maxPixels: 50_000_000 });
    await classifyWithFeatures(scene, counting);
    expect(runs).toBe(1 + classifierWindows(scene.width, scene.height).length);
    expect(runs).toBeGreaterThan(2);
  });

  // Squeezed whole, these read as "a dark scene at night", "a clog" and "a boat outdoors".
  it.each([
    ['rocket_launchpad.jpg', /\brocket\b/, 'rocket'],
    ['coffee_cup.jpg', /\b(espresso|cup)\b/, 'espresso'],
    ['colosseum.jpg', /\b(building|palace|monastery|amphitheater)\b/, 'building'],
  ])('%s tripled is captioned and tagged with its thing', async (name, caption, tag) => {
    const { data } = await service.analyze(await tripled(fixture(name)), { features: ['Tags', 'Description'] });
    expect(data.description!.captions[0]!.text).toMatch(caption);
    expect(data.tags!.find((t) => t.name === tag)?.confidence ?? 0).toBeGreaterThanOrEqual(0.5);
  });
});
