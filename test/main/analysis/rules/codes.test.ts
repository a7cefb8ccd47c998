// A QR code is "a QR code", tagged "qr code", and one in a photo is tagged while the photo keeps its
// subject; a barcode is "a barcode". Before, a QR code alone was "a decoration drawn in black and
// white" tagged flag (0.53), and a barcode "a barroom drawn in black and white". Real models,
// through the analyze service, on codes made by real encoders (qrencode: qr_code_url.png; GNU
// barcode: barcode_ean13.png) as they are, turned, JPEG-coded, on a wide canvas and pasted into a
// photo, and on drawings that share some of a code's structure and are none.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePixels } from '../../../../src-main/analysis/pixel-evidence';
import { decodeImage } from '../../../../src-main/inference';
import { fixture, repoRoot } from '../../../helpers/paths';
import { openDescriber } from './describer';

const describer = openDescriber();
const dir = mkdtempSync(join(tmpdir(), 'picscan-qr-'));
afterAll(async () => {
  await describer.close();
  rmSync(dir, { recursive: true, force: true });
});

const QR = join(repoRoot, 'test/fixtures/drawings/qr_code_url.png');
const EAN = join(repoRoot, 'test/fixtures/drawings/barcode_ean13.png');

const cuesOf = async (file: string) =>
  (await measurePixels(await decodeImage(new Uint8Array(readFileSync(file)), { maxPixels: 5e7 }))).scene;
const qrShareOf = async (file: string): Promise<number> => (await cuesOf(file)).qrCode;
const barcodeShareOf = async (file: string): Promise<number> => (await cuesOf(file)).barcode;

const analysed = (file: string) => describer.described(file, ['Tags', 'Description', 'Categories', 'ImageType']);

async function saved(name: string, image: sharp.Sharp): Promise<string> {
  const file = join(dir, name);
  writeFileSync(file, await image.toBuffer());
  return file;
}

/** A finder pattern (7 × 7 modules: ring, ring, 3 × 3 core) at module (mx, my), `m` px per module. */
const finder = (mx: number, my: number, m: number): string =>
  `<rect x="${mx * m}" y="${my * m}" width="${7 * m}" height="${7 * m}" fill="black"/>` +
  `<rect x="${(mx + 1) * m}" y="${(my + 1) * m}" width="${5 * m}" height="${5 * m}" fill="white"/>` +
  `<rect x="${(mx + 2) * m}" y="${(my + 2) * m}" width="${3 * m}" height="${3 * m}" fill="black"/>`;

describe('QR codes', () => {
  const codes: Array<[string, () => Promise<string>]> = [
    ['the encoder’s PNG', async () => QR],
    ['turned by 12°', () => saved('turned.png', sharp(QR).rotate(12, { background: 'white' }).png())],
    ['as a JPEG at q 60', () => saved('code.jpg', sharp(QR).jpeg({ quality: 60 }))],
    [
      'alone on a wide white canvas',
      () => saved('wide.png', sharp(QR).extend({ top: 102, bottom: 102, left: 202, right: 202, background: 'white' }).png()),
    ],
  ];

  it.each(codes)('%s is a QR code', async (_, make) => {
    const file = await make();
    expect(await qrShareOf(file)).toBeGreaterThan(0.15);
    const r = await analysed(file);
    expect(r.caption).toBe('a QR code');
    expect(r.tags.get('qr code') ?? 0).toBeGreaterThanOrEqual(0.9);
    expect(r.tags.get('flag') ?? 0).toBeLessThan(0.5);
    expect(r.tags.get('decoration') ?? 0).toBeLessThan(0.5);
  });

  it('a QR code in a corner of a photo is tagged, and the photo keeps its subject', async () => {
    const code = await sharp(QR).resize(220).png().toBuffer();
    const file = await saved(
      'cat-with-code.jpg',
      sharp(fixture('cat_chelsea.jpg'))
        .resize(900)
        .composite([{ input: code, gravity: 'southeast' }])
        .jpeg({ quality: 90 }),
    );
    const share = await qrShareOf(file);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(0.1);
    const r = await analysed(file);
    expect(r.caption).toBe('a cat');
    expect(r.tags.get('qr code') ?? 0).toBeGreaterThanOrEqual(0.9);
  });

  it('finder squares in three corners without timing patterns are no QR code', async () => {
    // A tile of 25 × 25 modules: the three finders of a version 2 code and nothing between them.
    const m = 10;
    const blank = `<svg xmlns="http://www.w3.org/2000/svg" width="${25 * m}" height="${25 * m}"><rect width="100%" height="100%" fill="white"/>${finder(0, 0, m)}${finder(18, 0, m)}${finder(0, 18, m)}</svg>`;
    const file = await saved(
      'finders.png',
      sharp(Buffer.from(blank)).extend({ top: 40, bottom: 40, left: 40, right: 40, background: 'white' }).png(),
    );
    expect(await qrShareOf(file)).toBe(0);
    const r = await analysed(file);
    expect(r.caption).not.toBe('a QR code');
    expect(r.tags.get('qr code') ?? 0).toBeLessThan(0.5);
  });

  it.each(['text_bw.png', 'lion_line_drawing.png', 'family_six_faces.jpg', 'horse_silhouette_clipart.png'])(
    'the fixture %s holds no QR code',
    async (name) => {
      expect(await qrShareOf(fixture(name))).toBe(0);
    },
  );
});

describe('barcodes', () => {
  const codes: Array<[string, () => Promise<string>]> = [
    ['the encoder’s EAN-13', async () => EAN],
    ['on its side', () => saved('side.png', sharp(EAN).rotate(90).png())],
    ['as a JPEG at q 60', () => saved('ean.jpg', sharp(EAN).jpeg({ quality: 60 }))],
    [
      'with a white margin',
      () => saved('margin.png', sharp(EAN).extend({ top: 40, bottom: 40, left: 40, right: 40, background: 'white' }).png()),
    ],
  ];

  it.each(codes)('%s is a barcode', async (_, make) => {
    const file = await make();
    expect(await barcodeShareOf(file)).toBeGreaterThan(0.15);
    expect(await qrShareOf(file)).toBe(0);
    const r = await analysed(file);
    expect(r.caption).toBe('a barcode');
    expect(r.tags.get('barcode') ?? 0).toBeGreaterThanOrEqual(0.9);
    for (const tag of ['barroom', 'text', 'sky', 'outdoor']) expect(r.tags.get(tag) ?? 0).toBeLessThan(0.5);
  });

  it('a QR code is no barcode', async () => {
    expect(await barcodeShareOf(QR)).toBe(0);
  });

  it('even stripes, slanted stripes of mixed widths and a page of print are no barcode', async () => {
    const even = Array.from({ length: 20 }, (_, i) => `<rect x="${20 + i * 18}" y="40" width="8" height="220" fill="black"/>`).join('');
    const widths = [2, 6, 2, 4, 8, 2, 2, 6, 4, 2, 8, 2, 4, 2, 6, 2, 4, 8, 2, 4];
    let x = 20;
    const slanted = widths
      .map((wd, i) => {
        const bar = `<rect x="${x}" y="40" width="${wd}" height="220" fill="black" transform="skewX(-4)"/>`;
        x += wd + (i % 3 === 0 ? 6 : 3);
        return bar;
      })
      .join('');
    const svg = (body: string): Buffer =>
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="300"><rect width="100%" height="100%" fill="white"/>${body}</svg>`,
      );
    for (const [name, body] of [
      ['even', even],
      ['slanted', `<g transform="translate(90 0)">${slanted}</g>`],
    ] as const) {
      const file = await saved(`${name}.png`, sharp(svg(body)).png());
      expect(await barcodeShareOf(file)).toBe(0);
      expect((await analysed(file)).tags.get('barcode') ?? 0).toBeLessThan(0.5);
    }
    expect(await barcodeShareOf(fixture('text_bw.png'))).toBe(0);
  });
});
