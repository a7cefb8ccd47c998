import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromaStats, isBlackAndWhite } from '../../../../src-main/analysis/color';
import { classifyImageType, measureInk } from '../../../../src-main/analysis/image-type';
import { cutoutPhoto } from '../../../../src-main/analysis/image-type/classify';
import { decodeImage } from '../../../../src-main/inference';
import { buildPixelField, measureTexture } from '../../../../src-main/analysis/pixels';
import { decodeFixture, fakeRunner, manifest } from '../fixtures';
import { fixture, repoRoot } from '../../../helpers/paths';
import { writeThumbnail } from '../../../helpers/thumbnail-file';
import { BANDS } from '../../../../src-main/analysis/rules/bands';
import { cutOutOnWhite } from '../../../helpers/cut-out';
import { measurePixels } from '../../../../src-main/analysis';
import { imageTypeEvidence } from '../../../../src-main/analysis/pixel-evidence';
import { measureScene } from '../../../../src-main/analysis/scene';

async function imageTypeOf(file: string): Promise<ReturnType<typeof classifyImageType>> {
  return typeOfPixels(await decodeFixture(file));
}

async function typeOfPixels(img: { data: Uint8Array; width: number; height: number }): Promise<ReturnType<typeof classifyImageType>> {
  return classifyImageType(imageTypeEvidence(await measurePixels(img)));
}

describe('ImageType from pixel statistics (no model)', () => {
  it('grades clip art ≥ 2 and photos < 2 on ≥ 85 % of the fixtures that set clipArt', async () => {
    const rated = manifest.filter((m) => m.truth.clipArt !== undefined);
    let right = 0;
    const wrong: string[] = [];
    for (const m of rated) {
      const t = await imageTypeOf(m.file);
      if (t.clipArtType >= 2 === m.truth.clipArt) right++;
      else wrong.push(`${m.file}:${t.clipArtType}`);
    }
    expect(right / rated.length, wrong.join(', ')).toBeGreaterThanOrEqual(0.85);
  });

  it('flags line drawings on ≥ 85 % of the fixtures that set lineDrawing, not the filled silhouette', async () => {
    const rated = manifest.filter((m) => m.truth.lineDrawing !== undefined);
    let right = 0;
    const wrong: string[] = [];
    for (const m of rated) {
      const t = await imageTypeOf(m.file);
      if ((t.lineDrawingType === 1) === m.truth.lineDrawing) right++;
      else wrong.push(m.file);
    }
    expect(right / rated.length, wrong.join(', ')).toBeGreaterThanOrEqual(0.85);
    expect((await imageTypeOf('horse_silhouette_clipart.png')).lineDrawingType).toBe(0);
  });

  it('does not take a large (upscaled) photo for clip art', async () => {
    const sharp = (await import('sharp')).default;
    for (const file of ['cameraman_bw.png', 'biden_portrait.jpg', 'rocket_launchpad.jpg']) {
      const { data, info } = await sharp(fixture(file))
        .resize({ width: 2400 })
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      const t = await typeOfPixels({ data: new Uint8Array(data), width: info.width, height: info.height });
      expect(t.clipArtType, file).toBeLessThan(2);
      expect(t.lineDrawingType, file).toBe(0);
    }
  });

  it('does not take smooth, low-noise greyscale photos (blurred, lossless) for clip art', async () => {
    // Smooth photos step by a level or two between neighbours; only synthetic fills stay exactly
    // flat. A "≤ 2 levels" flatness test rated such images (microscopy, motion blur, the moon) 2–3.
    // (Not the night photo: a blurred black sky clips to exactly 0, a known limit in docs/analysis.md.)
    const sharp = (await import('sharp')).default;
    for (const file of ['cat_chelsea.jpg', 'coffee_cup.jpg', 'biden_portrait.jpg', 'colosseum.jpg']) {
      const png = await sharp(fixture(file)).greyscale().blur(3).png().toBuffer();
      const { data, info } = await sharp(png).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
      const t = await typeOfPixels({ data: new Uint8Array(data), width: info.width, height: info.height });
      expect(t.clipArtType, file).toBeLessThan(2);
    }
  });

  it('keeps clip art as clip art when it was saved as JPEG', async () => {
    const sharp = (await import('sharp')).default;
    // (Not the 128 px gift box: its gradient shading does not survive JPEG as flat fills.)
    for (const file of ['cheese_clipart.png', 'horse_silhouette_clipart.png', 'lion_line_drawing.png']) {
      const jpeg = await sharp(fixture(file)).flatten({ background: '#ffffff' }).jpeg({ quality: 75 }).toBuffer();
      const { data, info } = await sharp(jpeg).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
      const t = await typeOfPixels({ data: new Uint8Array(data), width: info.width, height: info.height });
      expect(t.clipArtType, file).toBeGreaterThanOrEqual(2);
    }
  });

  it('rates photos cut out on white (product shots) as photos, losslessly or JPEG-coded, by their textured figure', async () => {
    const sharp = (await import('sharp')).default;
    for (const file of ['cat_chelsea.jpg', 'coffee_cup.jpg', 'rocket_launchpad.jpg']) {
      const png = await cutOutOnWhite(file);
      const lossless = await decodeImage(new Uint8Array(png), { maxPixels: 1e7 });
      expect(lossless.lossy, file).toBe(false);
      const t = await typeOfPixels(lossless);
      expect(t.clipArtType, `${file} cut out, PNG`).toBeLessThan(2);
      // As JPEG (as most product shots come) by the stricter lossy test: ringing roughens drawn
      // figures too. The rocket's night sky, coded flat by JPEG, keeps it clip art there.
      if (file === 'rocket_launchpad.jpg') continue;
      for (const quality of [90, 75]) {
        const jpeg = await decodeImage(new Uint8Array(await sharp(png).jpeg({ quality }).toBuffer()), { maxPixels: 1e7 });
        expect(jpeg.lossy, file).toBe(true);
        expect((await measurePixels(jpeg)).texture.lossy).toBe(true);
        expect((await typeOfPixels(jpeg)).clipArtType, `${file} cut out, JPEG q${quality}`).toBeLessThan(2);
      }
    }
    // Flat-filled drawings keep their reading: the fixtures' clip art has flat figures or a small palette.
    for (const file of ['cheese_clipart.png', 'present_clipart.png', 'horse_silhouette_clipart.png']) {
      const p = await measurePixels(await decodeFixture(file));
      expect(cutoutPhoto(p.texture), file).toBe(0);
    }
  });

  it('does not call a small coloured cartoon on a white page a line drawing; its black outline is one', async () => {
    // Most pixels are white paper, so the image-wide chroma stays low; what is drawn is coloured.
    const sharp = (await import('sharp')).default;
    const figure = (fill: string): string =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><rect width="100%" height="100%" fill="white"/>` +
      `<g stroke="black" stroke-width="6" fill="${fill}"><ellipse cx="300" cy="330" rx="60" ry="80"/><circle cx="300" cy="205" r="40"/>` +
      `<path d="M260 400 L220 520 M340 400 L380 520 M245 300 L130 240 M355 300 L470 240" fill="none"/></g></svg>`;
    const rate = async (svg: string): Promise<ReturnType<typeof classifyImageType>> => {
      const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      return typeOfPixels({ data: new Uint8Array(data), width: info.width, height: info.height });
    };
    expect((await rate(figure('none'))).lineDrawingType).toBe(1);
    expect((await rate(figure('rgb(240,120,180)'))).lineDrawingType).toBe(0);
  });

  it('rates a synthetic flat-colour graphic as good clip art and noise as a photo', () => {
    const w = 200;
    const h = 150;
    const flat = new Uint8Array(w * h * 3);
    const noisy = new Uint8Array(w * h * 3);
    let seed = 7;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 255;
    for (let i = 0; i < w * h; i++) {
      const inside = Math.hypot((i % w) - 100, Math.floor(i / w) - 75) < 50;
      flat.set(inside ? [240, 200, 20] : [255, 255, 255], i * 3);
      noisy.set([rand(), rand(), rand()], i * 3);
    }
    const rate = (data: Uint8Array): number => {
      const img = { data, width: w, height: h };
      const field = buildPixelField(img);
      const chroma = chromaStats(field);
      return classifyImageType({
        texture: measureTexture(img),
        ink: measureInk(img),
        chromaP90: chroma.p90,
        isBW: isBlackAndWhite(chroma),
        ...(({ levelSpan, brightness }) => ({ levelSpan, brightness }))(measureScene(field)),
      }).clipArtType;
    };
    expect(rate(flat)).toBe(3);
    expect(rate(noisy)).toBe(0);
  });
});

describe('text from pixels (rendered pages, no object or NSFW evidence)', () => {
  const tagsOf = async (svg: string): Promise<{ imageType: unknown; tag: (name: string) => number }> => {
    const sharp = (await import('sharp')).default;
    const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const img = { data: new Uint8Array(data), width: info.width, height: info.height };
    const { analyzePixels } = await import('../../../../src-main/analysis');
    const { data: out } = await analyzePixels(img, new Set(['ImageType', 'Tags', 'Color'] as const), new Set(), {
      runModel: fakeRunner(async (id): Promise<Record<string, { data: Float32Array; dims: number[] }>> =>
        id === 'centernet'
          ? {
              heatmap: { data: new Float32Array(128 * 128 * 80), dims: [1, 128, 128, 80] },
              box_offsets: { data: new Float32Array(128 * 128 * 4), dims: [1, 128, 128, 4] },
            }
          : id === 'mobilenet-v2-imagenet'
            ? { probabilities: { data: Float32Array.from({ length: 1001 }, (_, i) => (i === 0 ? 256 : 0)), dims: [1, 1001] } }
            : { probabilities: { data: new Float32Array([0, 0, 1, 0, 0]), dims: [1, 5] } },
      ),
    });
    return { imageType: out.imageType, tag: (name) => out.tags!.find((t) => t.name === name)?.confidence ?? 0 };
  };
  const page = (shade: string): string => {
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `<text x="20" y="${40 + i * 32}" font-size="20" font-family="sans-serif">Line ${i} of printed text, the quick brown fox jumps over</text>`,
    );
    return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="440"><defs><linearGradient id="light" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="black" stop-opacity="0"/><stop offset="1" stop-color="black" stop-opacity="${shade}"/></linearGradient></defs><rect width="100%" height="100%" fill="white"/>${rows.join('')}<rect width="100%" height="100%" fill="url(#light)"/></svg>`;
  };

  it('a page of text is text, not a line drawing or clip art', async () => {
    const r = await tagsOf(page('0'));
    expect(r.imageType).toEqual({ clipArtType: 0, lineDrawingType: 0 });
    expect(r.tag('text')).toBeGreaterThanOrEqual(0.5);
  });

  it('a photographed page lit unevenly is still text, and its paper is not sky', async () => {
    // The far corner at 45 % of the near one's light, as under a desk lamp.
    const r = await tagsOf(page('0.55'));
    expect(r.tag('text')).toBeGreaterThanOrEqual(0.5);
    expect(r.tag('sky')).toBeLessThan(0.5);
    expect(r.tag('outdoor')).toBeLessThan(0.5);
  });

  // Rows of one motif pass every test of a line of writing (inked bands between blank rows, wide
  // enough, on plain paper): a calibration grid of dots was "a page of text" at 0.95. Each row
  // repeats the first one's ink column by column; lines of writing do not.
  const motifRows = (motif: (x: number, y: number) => string): string => {
    const cells = [];
    for (let row = 0; row < 5; row++) for (let col = 0; col < 7; col++) cells.push(motif(60 + col * 80, 60 + row * 80));
    return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="440"><rect width="100%" height="100%" fill="white"/>${cells.join('')}</svg>`;
  };
  const star = (x: number, y: number): string =>
    `<polygon fill="black" points="${Array.from({ length: 10 }, (_, i) => {
      const r = i % 2 ? 8 : 20;
      const a = (i * Math.PI) / 5 - Math.PI / 2;
      return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
    }).join(' ')}"/>`;
  it.each([
    ['dots', (x: number, y: number) => `<circle cx="${x}" cy="${y}" r="20" fill="black"/>`],
    ['stars', star],
  ] as const)('rows of one repeated motif (%s) are not lines of writing', async (_, motif) => {
    const svg = motifRows(motif);
    const sharp = (await import('sharp')).default;
    const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixels = await measurePixels({ data: new Uint8Array(data), width: info.width, height: info.height });
    expect(pixels.scene.textLines).toBeLessThanOrEqual(1);
    expect((await tagsOf(svg)).tag('text')).toBeLessThan(0.5);
  });

  // Solid bars between blank rows were lines of writing too: a striped flag (the Catalan one) was
  // "a page of text" (0.63). Letters leave most of their line blank.
  it('stripes of a flag are not lines of writing', async () => {
    const stripes = Array.from({ length: 4 }, (_, i) => `<rect x="0" y="${60 + i * 90}" width="640" height="40" fill="#d02020"/>`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="440"><rect width="100%" height="100%" fill="#f0d020"/>${stripes.join('')}</svg>`;
    const sharp = (await import('sharp')).default;
    const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect((await measurePixels({ data: new Uint8Array(data), width: info.width, height: info.height })).scene.textLines).toBe(0);
    expect((await tagsOf(svg)).tag('text')).toBeLessThan(0.5);
  });

  it('twelve different lines of print still count as twelve', async () => {
    const sharp = (await import('sharp')).default;
    const { data, info } = await sharp(Buffer.from(page('0')))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect((await measurePixels({ data: new Uint8Array(data), width: info.width, height: info.height })).scene.textLines).toBe(12);
  });

  it('a texture of short light and dark strokes (grass, gravel) is not text', async () => {
    let seed = 11;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const strokes = Array.from({ length: 2500 }, () => {
      const [x, y, a] = [rand() * 512, rand() * 512, rand() * Math.PI];
      const len = 6 + rand() * 14;
      const grey = Math.round(rand() < 0.5 ? 20 + rand() * 60 : 175 + rand() * 80);
      return `<line x1="${x.toFixed(1)}" y1="${y.toFixed(1)}" x2="${(x + len * Math.cos(a)).toFixed(1)}" y2="${(y + len * Math.sin(a)).toFixed(1)}" stroke="rgb(${grey},${grey},${grey})" stroke-width="1.5"/>`;
    });
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><rect width="100%" height="100%" fill="rgb(120,120,120)"/>${strokes.join('')}</svg>`;
    expect((await tagsOf(svg)).tag('text')).toBeLessThan(0.5);
  });
});

describe('text-like blocks at the same share of the picture on thumbnails', () => {
  const dir = mkdtempSync(join(tmpdir(), 'picscan-text-blocks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const blocksOf = async (path: string, side?: number): Promise<number> => {
    const file = side ? await writeThumbnail(path, side, dir) : path;
    return (await measurePixels(await decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 1e8 }))).scene.textBlocks;
  };

  // A thumbnail is its own pixel field: with blocks of 8 px, a block of a 64 px drawing covered an
  // eighth of it (a whole eye socket or node) and read as a glyph (0.43–0.70 against 0.28–0.30).
  it.each([
    ['diagram_graph_clipart.jpg', 96],
    ['diagram_graph_clipart.jpg', 64],
    ['cartoon_cute_skull_fredrik_holmq_01.jpg', 96],
    ['cartoon_cute_skull_fredrik_holmq_01.jpg', 64],
  ] as const)('%s at %i px has about the text blocks it has at full size', async (file, side) => {
    const path = join(repoRoot, 'test/fixtures/negatives', file);
    expect(Math.abs((await blocksOf(path, side)) - (await blocksOf(path)))).toBeLessThanOrEqual(0.12);
  });

  it.each(['text_handwritten_script.jpg', 'text_handwritten_chancery.jpg', 'text_printed_serif_page.jpg'])(
    'the page %s at 96 px still has text-like blocks',
    async (file) => {
      expect(await blocksOf(join(repoRoot, 'test/fixtures/negatives', file), 96)).toBeGreaterThanOrEqual(BANDS['textBlocks.page'].from);
    },
  );
});
