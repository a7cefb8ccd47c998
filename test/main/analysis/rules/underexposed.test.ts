// A photo taken far too dark is neither clip art nor a night scene. Quantised to a few dozen
// levels, its neighbours are exactly equal and its palette small, as a drawing's fills are, and
// its smooth dark top reads as a night sky: before, the fixture photos dimmed to 5–8 % of their
// levels were clip art (type 2–3) and "a clip art image of a flag" (tags flag, decoration,
// design 0.9) or "a clip art image"; at 12 % the colosseum was still clip art. A drawing on a dark
// page keeps its clip-art rating. Real models, through the analyze service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { FEW_LEVELS } from '../../../../src-main/analysis/rules/bands';
import { decodeImage } from '../../../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../../../src-main/intake';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { fixture } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

const engine = createEngine();
const service = createAnalyzeService({ runModel: runnerOf(engine), loader: createImageLoader(intakeOptions('desktop')) });
const dir = mkdtempSync(join(tmpdir(), 'picscan-underexposed-'));
afterAll(async () => {
  await engine.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** The fixture at `exposure` × its levels, as a JPEG file (q90). */
async function dimmed(name: string, exposure: number): Promise<string> {
  const file = join(dir, `${exposure}-${name.replace(/\.\w+$/, '.jpg')}`);
  await sharp(fixture(name)).linear(exposure, 0).jpeg({ quality: 90 }).toFile(file);
  return file;
}

async function analysed(file: string) {
  const { data } = await service.analyze(file, { features: ['Tags', 'Description', 'ImageType'] });
  return {
    caption: data.description!.captions[0]!.text,
    tags: new Map(data.tags!.map((t) => [t.name, t.confidence])),
    type: data.imageType!,
  };
}

const levelSpanOf = async (file: string): Promise<number> =>
  (await measurePixels(await decodeImage(await sharp(file).toBuffer(), { maxPixels: 1e8 }))).scene.levelSpan;

describe('a photo taken far too dark', () => {
  it.each([
    ['cat_chelsea.jpg', 0.05],
    ['cat_chelsea.jpg', 0.08],
    ['colosseum.jpg', 0.08],
    ['colosseum.jpg', 0.12],
    ['coffee_cup.jpg', 0.05],
  ])('%s at %s of its levels is no clip art and no night scene', async (name, exposure) => {
    const file = await dimmed(name, exposure);
    expect(await levelSpanOf(file)).toBeLessThan(FEW_LEVELS);
    const d = await analysed(file);
    expect(d.type.clipArtType).toBe(0);
    expect(d.caption).not.toMatch(/clip art|flag|at night|outdoors/);
    for (const tag of ['clipart', 'flag', 'decoration', 'night', 'outdoor', 'sky']) expect(d.tags.get(tag) ?? 0, tag).toBeLessThan(0.5);
  });

  it('names what the classifier still sees: the coffee cup at 8 %', async () => {
    const d = await analysed(await dimmed('coffee_cup.jpg', 0.08));
    expect(d.caption).toMatch(/\bcup\b/);
  });

  it('the same photos at full exposure span far more levels', async () => {
    for (const name of ['cat_chelsea.jpg', 'colosseum.jpg', 'coffee_cup.jpg'])
      expect(await levelSpanOf(fixture(name))).toBeGreaterThan(100);
  });

  it('a drawing on a dark page stays clip art: bright shapes span the levels', async () => {
    const shapes = [
      '<circle cx="90" cy="80" r="40" fill="#ffd700"/>',
      '<rect x="220" y="150" width="90" height="60" fill="#e04040"/>',
      '<polygon points="60,260 120,180 180,260" fill="#40c0ff"/>',
    ].join('');
    const file = join(dir, 'dark-page.png');
    await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#101020"/>${shapes}</svg>`,
      ),
    )
      .png()
      .toFile(file);
    const d = await analysed(file);
    expect(d.type.clipArtType).toBeGreaterThanOrEqual(2);
  });
});
