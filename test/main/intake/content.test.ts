import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadImage } from '../../../src-main/intake';
import { decodeImage } from '../../../src-main/inference/image';
import { fixture } from '../../helpers/paths';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { apngOf, expectAppError, halfRedHalfBlue, pixelAt, pngDeclaring, progressiveJpegOfManyScans, solid, testOptions } from './support';

describe('validation by content and decoding', () => {
  let server: FixtureServer;
  let n = 0;
  /** Serves bytes under a fresh path (with a misleading Content-Type by default) and loads them. */
  const serve = (bytes: Uint8Array | string, name = 'image.jpg', contentType = 'image/jpeg'): string => {
    const path = `/c${n++}/${name}`;
    server.route(path, { body: bytes, headers: { 'content-type': contentType } });
    return server.url(path);
  };
  const load = (bytes: Uint8Array | string, name?: string) => loadImage(serve(bytes, name), testOptions());

  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await server.close();
  });

  describe('refuses what is not a JPEG or PNG', () => {
    it('an HTML page served as image/jpeg', async () => {
      const err = await expectAppError(load('<!DOCTYPE html><html><body>Not found</body></html>', 'photo.jpg'), 'invalid-image-format');
      expect(err.details).toMatchObject({ detected: 'html' });
      expect(err.message).toMatch(/photo\.jpg is an HTML page; only JPEG and PNG images are supported/);
    });

    it('a GIF', async () => {
      const gif = await solid(60, 60).gif().toBuffer();
      const err = await expectAppError(load(gif, 'anim.jpg'), 'invalid-image-format');
      expect(err.details).toMatchObject({ detected: 'gif' });
    });

    it('a WebP', async () => {
      const webp = await solid(60, 60).webp().toBuffer();
      const err = await expectAppError(load(webp), 'invalid-image-format');
      expect(err.details).toMatchObject({ detected: 'webp' });
    });

    it('a BMP', async () => {
      const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]);
      const err = await expectAppError(load(bmp), 'invalid-image-format');
      expect(err.details).toMatchObject({ detected: 'bmp' });
    });

    it('an SVG', async () => {
      const svg =
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>';
      const err = await expectAppError(load(svg, 'drawing.png'), 'invalid-image-format');
      expect(err.details).toMatchObject({ detected: 'svg' });
    });

    it('a zero-byte body', async () => {
      const err = await expectAppError(load(new Uint8Array()), 'invalid-image-format');
      expect(err.details).toMatchObject({ detected: 'empty' });
      expect(err.message).toContain('empty (0 bytes)');
    });

    it('a JPEG truncated in its pixel data', async () => {
      const jpeg = readFileSync(fixture('astronaut_eileen_collins.jpg'));
      const err = await expectAppError(load(jpeg.subarray(0, Math.floor(jpeg.length / 2))), 'invalid-image-format');
      expect(err.message).toMatch(/damaged or truncated JPEG/);
    });

    // No encoder at hand writes these (libjpeg-turbo 2 and sharp write 8-bit lossy JPEGs only), so
    // a real photo's frame header is made to declare the process; the refusal reads the header alone.
    it.each([
      ['12-bit', 0xc1, 12],
      ['lossless', 0xc3, 8],
      ['hierarchical', 0xc5, 8],
    ])('a valid %s JPEG, which the decoder cannot read, is named so, not "damaged"', async (process, marker, precision) => {
      const jpeg = Buffer.from(readFileSync(fixture('astronaut_eileen_collins.jpg')));
      let at = 2;
      while (!(jpeg[at + 1]! >= 0xc0 && jpeg[at + 1]! <= 0xc2)) at += 2 + jpeg.readUInt16BE(at + 2); // to the SOF segment
      jpeg[at + 1] = marker;
      jpeg[at + 4] = precision;
      const err = await expectAppError(load(jpeg), 'invalid-image-format');
      expect(err.message).toContain(`is a ${process} JPEG`);
      expect(err.message).not.toMatch(/damaged|truncated/);
      expect(err.details).toMatchObject({ detected: 'jpeg', process });
    });

    it('a JPEG truncated inside its header', async () => {
      const jpeg = readFileSync(fixture('astronaut_eileen_collins.jpg'));
      await expectAppError(load(jpeg.subarray(0, 100)), 'invalid-image-format');
    });

    it('a PNG truncated in its pixel data', async () => {
      const png = readFileSync(fixture('cheese_clipart.png'));
      await expectAppError(load(png.subarray(0, Math.floor(png.length / 2)), 'x.png'), 'invalid-image-format');
    });
  });

  describe('size limits', () => {
    it('refuses a 40 × 40 image', async () => {
      const err = await expectAppError(load(await solid(40, 40).png().toBuffer()), 'image-too-small');
      expect(err.details).toMatchObject({ width: 40, height: 40, minSidePx: 50 });
      expect(err.message).toContain('40 × 40 px; each side must be at least 50 px');
    });

    it('accepts exactly 50 × 50', async () => {
      const img = await load(await solid(50, 50).jpeg().toBuffer());
      expect(img.metadata).toEqual({ width: 50, height: 50, format: 'Jpeg' });
    });

    it('refuses a side over 16 000 px from the header', async () => {
      const err = await expectAppError(load(pngDeclaring(16_001, 60), 'wide.png'), 'image-dimensions-exceeded');
      expect(err.details).toMatchObject({ width: 16_001, maxSidePx: 16_000 });
    });

    it('refuses a PNG declaring 100 000 × 100 000 px before decoding, fast and without memory growth', async () => {
      const bomb = pngDeclaring(100_000, 100_000);
      const rssBefore = process.memoryUsage().rss;
      const start = performance.now();
      const err = await expectAppError(load(bomb, 'bomb.png'), 'image-dimensions-exceeded');
      const ms = performance.now() - start;
      const rssGrowthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
      expect(err.details).toMatchObject({ width: 100_000, height: 100_000 });
      expect(ms).toBeLessThan(5_000); // decoding 10¹⁰ pixels would take minutes, if memory allowed
      expect(rssGrowthMb).toBeLessThan(50);
    });

    it('refuses by pixel count when both sides are allowed', async () => {
      const err = await expectAppError(loadImage(serve(pngDeclaring(10_000, 10_000)), testOptions()), 'image-dimensions-exceeded');
      expect(err.details).toMatchObject({ pixels: 100_000_000, maxPixels: 50_000_000 });
    });

    it('refuses a progressive JPEG in 694 scans before decoding (each scan a pass over every pixel)', async () => {
      // At 200 × 100 px it would decode in milliseconds; at 7 000 × 7 000 such a file took 14 s.
      const bomb = progressiveJpegOfManyScans(200, 100);
      expect((await decodeImage(bomb, { maxPixels: 50_000_000 })).width).toBe(200); // a valid JPEG
      const err = await expectAppError(load(bomb, 'scans.jpg'), 'invalid-image-format');
      expect(err.message).toMatch(/scans\.jpg is a progressive JPEG in more than 100 scans; at most 100 are accepted/);
      expect(err.details).toMatchObject({ detected: 'jpeg', maxScans: 100 });
    });

    it('the decoder itself refuses a bomb via limitInputPixels (second line of defence)', async () => {
      const start = performance.now();
      await expectAppError(decodeImage(pngDeclaring(100_000, 100_000), { maxPixels: 50_000_000 }), 'decode-failed');
      expect(performance.now() - start).toBeLessThan(5_000);
    });
  });

  describe('decodes every JPEG/PNG variant to 8-bit RGB', () => {
    it('accepts a PNG named .jpg and served as image/jpeg (content wins)', async () => {
      const img = await load(readFileSync(fixture('cheese_clipart.png')), 'cheese.jpg');
      expect(img.metadata).toEqual({ width: 300, height: 225, format: 'Png' });
      expect(img.fileName).toBe('cheese.jpg');
    });

    it.each([
      [6, 80, 120, 'red', 'blue'], // 90° clockwise: the left (red) half ends up on top
      [8, 80, 120, 'blue', 'red'], // 90° counter-clockwise
      [3, 120, 80, 'blue', 'red'], // 180°: top-left is now blue
    ])('applies EXIF orientation %i', async (orientation, width, height, topLeft, bottomRight) => {
      const jpeg = await (await halfRedHalfBlue(120, 80)).jpeg({ quality: 95 }).withMetadata({ orientation }).toBuffer();
      const img = await load(jpeg);
      expect(img.metadata).toEqual({ width, height, format: 'Jpeg' });
      const colour = ([r, , b]: number[]): string => (r! > 200 && b! < 60 ? 'red' : b! > 200 && r! < 60 ? 'blue' : 'other');
      expect(colour(pixelAt(img.image, 2, 2))).toBe(topLeft);
      expect(colour(pixelAt(img.image, width - 3, height - 3))).toBe(bottomRight);
      expect(Math.max(img.thumbnail.width, img.thumbnail.height)).toBe(120);
      expect(img.thumbnail.width).toBe(width);
    });

    it('greyscale PNG → equal R, G, B', async () => {
      const img = await load(await solid(64, 64).greyscale().png().toBuffer(), 'g.png');
      const [r, g, b] = pixelAt(img.image, 10, 10);
      expect(r).toBe(g);
      expect(g).toBe(b);
    });

    it('alpha PNG → composited on white', async () => {
      const clear = await solid(64, 64, 4, { r: 0, g: 0, b: 0, alpha: 0 }).png().toBuffer();
      expect(pixelAt((await load(clear, 'a.png')).image, 5, 5)).toEqual([255, 255, 255]);
      const half = await solid(64, 64, 4, { r: 0, g: 0, b: 0, alpha: 0.5 }).png().toBuffer();
      const [r] = pixelAt((await load(half, 'b.png')).image, 5, 5);
      expect(r).toBeGreaterThan(110);
      expect(r).toBeLessThan(145);
    });

    it('16-bit PNG → scaled, not clipped, to 8-bit', async () => {
      const png16 = await solid(64, 64).toColourspace('rgb16').png().toBuffer();
      const img = await load(png16, 'deep.png');
      expect(pixelAt(img.image, 3, 3)).toEqual([200, 100, 50]);
      const grey16 = await solid(64, 64).toColourspace('grey16').png().toBuffer();
      const [gr, gg, gb] = pixelAt((await load(grey16, 'deepgrey.png')).image, 3, 3);
      expect(gr).toBeGreaterThan(100);
      expect([gg, gb]).toEqual([gr, gr]);
    });

    it('palette PNG', async () => {
      const img = await load(await solid(64, 64).png({ palette: true }).toBuffer(), 'p.png');
      const [r, g, b] = pixelAt(img.image, 3, 3);
      expect(Math.abs(r - 200) + Math.abs(g - 100) + Math.abs(b - 50)).toBeLessThan(12);
    });

    it('CMYK JPEG → sRGB close to the original colour', async () => {
      const cmyk = await solid(64, 64).toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer();
      const img = await load(cmyk, 'print.jpg');
      const [r, g, b] = pixelAt(img.image, 3, 3);
      expect(Math.abs(r - 200) + Math.abs(g - 100) + Math.abs(b - 50)).toBeLessThan(30);
    });

    it('interlaced (Adam7) PNG', async () => {
      const img = await load(await (await halfRedHalfBlue(120, 80)).png({ progressive: true }).toBuffer(), 'i.png');
      expect(img.metadata).toEqual({ width: 120, height: 80, format: 'Png' });
      expect(pixelAt(img.image, 2, 2)).toEqual([255, 0, 0]);
      expect(pixelAt(img.image, 117, 2)).toEqual([0, 0, 255]);
    });

    it('progressive JPEG', async () => {
      const img = await load(await solid(100, 70).jpeg({ progressive: true }).toBuffer());
      expect(img.metadata).toEqual({ width: 100, height: 70, format: 'Jpeg' });
    });

    it('animated PNG → its first frame', async () => {
      const red = await solid(64, 64, 3, { r: 255, g: 0, b: 0 }).png().toBuffer();
      const blue = await solid(64, 64, 3, { r: 0, g: 0, b: 255 }).png().toBuffer();
      const img = await load(apngOf(red, blue), 'anim.png');
      expect(img.metadata).toEqual({ width: 64, height: 64, format: 'Png' });
      expect(pixelAt(img.image, 10, 10)).toEqual([255, 0, 0]);
    });
  });
});
