/**
 * The thumbnail use case on real models and fixture images: exact output sizes and formats,
 * centre crops, and crafted smart-crop cases checked with picscan's own face detection.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThumbnailService, type ThumbnailResult, type ThumbnailService } from '../../../src-main/services/thumbnail.service';
import { regionSources } from '../../../src-main/app';
import { centreCrop, type CropRect } from '../../../src-main/services/thumbnail/crop-geometry';
import type { DetectedFace } from '../../../src-main/shared/spec';
import { fixture } from '../../helpers/paths';
import { openFaceStack, type FaceStack } from '../analysis/faces/fixture-eval';

let stack: FaceStack;
let thumbs: ThumbnailService;
let dir: string;
beforeAll(() => {
  stack = openFaceStack(2);
  thumbs = createThumbnailService({ loader: stack.loader, regionSources: regionSources(stack.engine) });
  dir = mkdtempSync(join(tmpdir(), 'picscan-thumbnail-'));
});
afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Faces picscan's detect finds in an image file. */
async function facesIn(path: string): Promise<DetectedFace[]> {
  const r = (await stack.service.detect({ image: path, minHeadScale: 0.05 })).response;
  return 'images' in r ? r.images[0]!.faces : [];
}

const holds = (crop: CropRect, f: DetectedFace): boolean =>
  f.topLeftX >= crop.left &&
  f.topLeftY >= crop.top &&
  f.topLeftX + f.width <= crop.left + crop.width &&
  f.topLeftY + f.height <= crop.top + crop.height;

async function save(name: string, t: ThumbnailResult): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, t.data);
  return path;
}

/** A canvas of `width × height` with fixture images pasted at the given positions (JPEG file). */
async function composite(
  name: string,
  width: number,
  height: number,
  parts: Array<{ file: string; left: number; top: number; resizeHeight: number }>,
): Promise<string> {
  const layers = await Promise.all(
    parts.map(async (p) => ({
      input: await sharp(fixture(p.file)).resize({ height: p.resizeHeight }).toBuffer(),
      left: p.left,
      top: p.top,
    })),
  );
  const path = join(dir, name);
  await sharp({ create: { width, height, channels: 3, background: { r: 120, g: 120, b: 120 } } })
    .composite(layers)
    .jpeg({ quality: 92 })
    .toFile(path);
  return path;
}

describe('thumbnail sizes and formats', () => {
  it('JPEG in, JPEG out, exactly width × height', async () => {
    for (const [width, height] of [
      [123, 77],
      [1, 1024],
      [1024, 1],
      [300, 300],
    ] as const) {
      const t = await thumbs.thumbnail(fixture('obama_portrait.jpg'), { width, height, smartCropping: false });
      const meta = await sharp(t.data).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, mime: t.mimeType }).toEqual({
        format: 'jpeg',
        width,
        height,
        mime: 'image/jpeg',
      });
    }
  });

  it('PNG in, PNG out, exactly width × height, smart or not', async () => {
    for (const smartCropping of [false, true]) {
      const t = await thumbs.thumbnail(fixture('cheese_clipart.png'), { width: 64, height: 200, smartCropping });
      const meta = await sharp(t.data).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, mime: t.mimeType }).toEqual({
        format: 'png',
        width: 64,
        height: 200,
        mime: 'image/png',
      });
    }
  });

  it('without smart cropping cuts the centre', async () => {
    const t = await thumbs.thumbnail(fixture('obama_portrait.jpg'), { width: 200, height: 100, smartCropping: false });
    expect(t.crop).toEqual(centreCrop({ imageWidth: 455, imageHeight: 569, targetWidth: 200, targetHeight: 100 }));
    expect(t.regions).toBeUndefined();
  });
});

describe('smart cropping', () => {
  it('keeps a face at the right edge of a wide image whole in a square thumbnail, over a cat on the left', async () => {
    const src = await composite('wide.jpg', 1400, 600, [
      { file: 'cat_chelsea.jpg', left: 0, top: 100, resizeHeight: 400 },
      { file: 'obama_portrait.jpg', left: 920, top: 0, resizeHeight: 600 },
    ]);
    const [face] = await facesIn(src);
    expect(face).toBeDefined();
    const centre = centreCrop({ imageWidth: 1400, imageHeight: 600, targetWidth: 300, targetHeight: 300 });
    expect(holds(centre, face!)).toBe(false);

    const t = await thumbs.thumbnail(src, { width: 300, height: 300, smartCropping: true });
    expect(t.regions?.kind).toBe('faces');
    expect(holds(t.crop, face!)).toBe(true);
    const inThumb = await facesIn(await save('wide-thumb.jpg', t));
    expect(inThumb).toHaveLength(1);
  });

  it('keeps a face at the bottom of a tall image whole in a wide thumbnail', async () => {
    const src = await composite('tall.jpg', 500, 1500, [{ file: 'tom_cruise.jpg', left: 150, top: 1200, resizeHeight: 300 }]);
    const [face] = await facesIn(src);
    expect(face).toBeDefined();
    const target = { width: 400, height: 240 };
    const centre = centreCrop({ imageWidth: 500, imageHeight: 1500, targetWidth: target.width, targetHeight: target.height });
    expect(holds(centre, face!)).toBe(false);

    const t = await thumbs.thumbnail(src, { ...target, smartCropping: true });
    expect(t.regions?.kind).toBe('faces');
    expect(holds(t.crop, face!)).toBe(true);
    const inThumb = await facesIn(await save('tall-thumb.jpg', t));
    expect(inThumb).toHaveLength(1);
  });

  it('falls back to object boxes without faces (the cat)', async () => {
    const src = await composite('cat-edge.jpg', 1200, 300, [{ file: 'cat_chelsea.jpg', left: 750, top: 0, resizeHeight: 300 }]);
    const t = await thumbs.thumbnail(src, { width: 100, height: 100, smartCropping: true });
    expect(t.regions?.kind).toBe('objects');
    // The 300 px square crop sits over the cat (x 750..1200), not over the empty centre.
    expect(t.crop.left).toBeGreaterThanOrEqual(750 - 50);
  });

  it('falls back to saliency on a picture with neither faces nor objects', async () => {
    const path = join(dir, 'patch.png');
    const patch = await sharp({ create: { width: 60, height: 60, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .composite([
        { input: Buffer.from('<svg width="60" height="60"><path d="M0 0h30v30H0zM30 30h30v30H30z" fill="#fff"/></svg>'), left: 0, top: 0 },
      ])
      .png()
      .toBuffer();
    await sharp({ create: { width: 800, height: 200, channels: 3, background: { r: 200, g: 200, b: 200 } } })
      .composite([{ input: patch, left: 20, top: 70 }])
      .png()
      .toFile(path);
    const t = await thumbs.thumbnail(path, { width: 50, height: 50, smartCropping: true });
    expect(t.regions?.kind).toBe('saliency');
    expect(t.crop).toEqual({ left: 0, top: 0, width: 200, height: 200 });
    expect(t.format).toBe('Png');
  });
});
