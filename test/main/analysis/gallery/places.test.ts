import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cropRgb, resizeRgb, type InferenceEngine, type RgbImage } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import type { GalleryService } from '../../../../src-main/services/gallery.service';
import { fixture } from '../../../helpers/paths';
import { fixtureImage, testEngine, testGallery, testLoader } from './support';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

const OTHER_FIXTURES = [
  'astronaut_eileen_collins.jpg',
  'biden_portrait.jpg',
  'cameraman_bw.png',
  'cat_chelsea.jpg',
  'cheese_clipart.png',
  'coffee_cup.jpg',
  'dancer_sketch_line_drawing.png',
  'family_six_faces.jpg',
  'grace_hopper.jpg',
  'horse_silhouette_clipart.png',
  'lion_line_drawing.png',
  'obama_biden_two_people.jpg',
  'obama_portrait.jpg',
  'present_clipart.png',
  'rocket_launchpad.jpg',
  'text_bw.png',
  'tom_cruise.jpg',
];

/** Multiplies each channel by a gain and applies a gamma: a colour cast plus a lighting change. */
function colourShift(img: RgbImage, gains: [number, number, number], gamma: number): RgbImage {
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.round(255 * (img.data[i]! / 255) ** gamma * gains[i % 3]!));
  return { ...img, data: out };
}

async function writeJpeg(img: RgbImage, file: string): Promise<string> {
  await writeFile(
    file,
    await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  return file;
}

describe('place gallery on the fixtures (real models)', () => {
  let engine: InferenceEngine;
  let loader: ImageLoader;
  let gallery: GalleryService;
  let colosseum: RgbImage;

  beforeAll(async () => {
    engine = testEngine();
    loader = testLoader();
    gallery = testGallery(engine, loader);
    colosseum = await fixtureImage(loader, 'colosseum.jpg');
    // Reference: the left three quarters of the photo (600×399 → 450×399).
    const dir = await mkdtemp(join(tmpdir(), 'picscan-places-'));
    const reference = await writeJpeg(cropRgb(colosseum, { left: 0, top: 0, width: 450, height: 399 }), join(dir, 'colosseum-left.jpg'));
    await gallery.addPlace('Colosseum', { latitude: 41.8902, longitude: 12.4922, mid: '/m/0d5qx' }, [reference]);
  });
  afterAll(async () => {
    await gallery.dispose();
    await loader.close();
    await engine.dispose();
  });

  it('recognises a differently cropped, rescaled and colour-shifted view, with both output shapes', async () => {
    // Right 70 % and lower 85 %, shrunk to 60 %, warm cast and darker mid-tones.
    const crop = cropRgb(colosseum, { left: 180, top: 60, width: 420, height: 339 });
    const query = colourShift(await resizeRgb(crop, 252, 203), [1.15, 1.0, 0.82], 1.25);
    const match = await gallery.matcher().matchLandmarks(query);
    expect(match.details.map((d) => d.name)).toEqual(['Colosseum']);
    expect(match.details[0]!.confidence).toBeGreaterThan(0.5);
    const [doc] = match.annotations ?? [];
    expect(doc).toMatchObject({
      mid: '/m/0d5qx',
      description: 'Colosseum',
      locations: [{ latLng: { latitude: 41.8902, longitude: 12.4922 } }],
    });
    expect(doc!.score).toBe(match.details[0]!.confidence);
    const v = doc!.boundingPoly.vertices;
    expect(v).toHaveLength(4);
    // Clockwise from the top-left corner, integer px inside the query image.
    expect(v[0]!.x).toBe(v[3]!.x);
    expect(v[0]!.y).toBe(v[1]!.y);
    expect(v[1]!.x).toBeGreaterThan(v[0]!.x);
    expect(v[2]!.y).toBeGreaterThan(v[1]!.y);
    for (const p of v) {
      expect(Number.isInteger(p.x) && Number.isInteger(p.y)).toBe(true);
      expect(p.x >= 0 && p.x <= query.width && p.y >= 0 && p.y <= query.height).toBe(true);
    }
  });

  it('recognises the whole original photo', async () => {
    expect((await gallery.matcher().matchLandmarks(colosseum)).details.map((d) => d.name)).toEqual(['Colosseum']);
  });

  it.each(OTHER_FIXTURES)('recognises no place in %s', async (file) => {
    const match = await gallery.matcher().matchLandmarks(await fixtureImage(loader, file));
    expect(match).toEqual({ details: [] });
  });

  it('rejects out-of-range coordinates before loading any image', async () => {
    await expect(gallery.addPlace('Nowhere', { latitude: 91, longitude: 0 }, [fixture('colosseum.jpg')])).rejects.toMatchObject({
      code: 'invalid-parameter',
    });
    await expect(gallery.addPlace('Nowhere', { latitude: 0, longitude: -181 }, [fixture('colosseum.jpg')])).rejects.toMatchObject({
      code: 'invalid-parameter',
    });
  });
});

describe('several places in one gallery (real models)', () => {
  const PLACES = ['colosseum.jpg', 'rocket_launchpad.jpg', 'coffee_cup.jpg', 'cat_chelsea.jpg'];
  let engine: InferenceEngine;
  let loader: ImageLoader;
  let gallery: GalleryService;
  const images = new Map<string, RgbImage>();

  beforeAll(async () => {
    engine = testEngine();
    loader = testLoader();
    gallery = testGallery(engine, loader);
    const dir = await mkdtemp(join(tmpdir(), 'picscan-places-'));
    for (const file of PLACES) {
      const img = await fixtureImage(loader, file);
      images.set(file, img);
      // Reference: the top-left 80 % × 85 % of each photo.
      const w = Math.round(img.width * 0.8);
      const h = Math.round(img.height * 0.85);
      const reference = await writeJpeg(
        cropRgb(img, { left: 0, top: 0, width: w, height: h }),
        join(dir, file.replace(/\.\w+$/, '-ref.jpg')),
      );
      await gallery.addPlace(file, { latitude: 0, longitude: 0 }, [reference]);
    }
  });
  afterAll(async () => {
    await gallery.dispose();
    await loader.close();
    await engine.dispose();
  });

  it.each(PLACES)('recognises a re-framed, rescaled, colour-shifted %s as itself only', async (file) => {
    const img = images.get(file)!;
    // Bottom-right 75 % × 80 %, scaled to 70 %, cool cast and brighter mid-tones.
    const w = Math.round(img.width * 0.75);
    const h = Math.round(img.height * 0.8);
    const crop = cropRgb(img, { left: img.width - w, top: img.height - h, width: w, height: h });
    const query = colourShift(await resizeRgb(crop, Math.round(w * 0.7), Math.round(h * 0.7)), [0.85, 1.0, 1.15], 0.8);
    const match = await gallery.matcher().matchLandmarks(query);
    expect(match.details.map((d) => d.name)).toEqual([file]);
  });
});
