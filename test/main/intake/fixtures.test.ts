import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createImageLoader, loadImage, type ImageLoader } from '../../../src-main/intake';
import { fixture, fixturesDir } from '../../helpers/paths';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { testOptions } from './support';

interface ManifestEntry {
  file: string;
  width: number;
  height: number;
}
const manifest = JSON.parse(readFileSync(`${fixturesDir}/manifest.json`, 'utf8')) as ManifestEntry[];
const formatOf = (file: string): 'Jpeg' | 'Png' => (file.endsWith('.png') ? 'Png' : 'Jpeg');

describe('every shared fixture image', () => {
  let server: FixtureServer;
  let loader: ImageLoader;
  beforeAll(async () => {
    server = await startFixtureServer();
    for (const { file } of manifest)
      server.route(`/images/${file}`, { file: fixture(file), headers: { 'content-type': 'application/octet-stream' } });
    loader = createImageLoader(testOptions('desktop'));
  });
  afterAll(async () => {
    await loader.close();
    await server.close();
  });

  it('covers every image file in the fixtures folder', () => {
    const images = readdirSync(fixturesDir).filter((f) => /\.(jpe?g|png)$/i.test(f));
    expect(manifest.map((m) => m.file).sort()).toEqual(images.sort());
  });

  it.each(manifest)('$file decodes over HTTP to its manifest size and format', async ({ file, width, height }) => {
    const img = await loader.load(server.url(`/images/${file}`));
    const bytes = readFileSync(fixture(file));
    expect(img.metadata).toEqual({ width, height, format: formatOf(file) });
    expect(img.image).toMatchObject({ width, height, channels: 3 });
    expect(img.image.data.length).toBe(width * height * 3);
    expect(img.fileName).toBe(file);
    expect(img.byteSize).toBe(bytes.length);
    expect(img.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(Math.max(img.thumbnail.width, img.thumbnail.height)).toBe(Math.min(256, Math.max(width, height)));
    const thumbMeta = await sharp(img.thumbnail.data).metadata();
    expect(thumbMeta.format).toBe('webp');
    expect(img.timings.fetchMs).toBeGreaterThanOrEqual(0);
    expect(img.timings.decodeMs).toBeGreaterThan(0);
  });

  it('with { thumbnail: false } returns the same image, hash and metadata without a thumbnail', async () => {
    const file = 'obama_portrait.jpg';
    const full = await loader.load(fixture(file));
    const pixels = await loader.load(fixture(file), undefined, { thumbnail: false });
    expect(pixels).not.toHaveProperty('thumbnail');
    expect(pixels.metadata).toEqual(full.metadata);
    expect(pixels.sha256).toBe(full.sha256);
    expect(Buffer.compare(pixels.image.data, full.image.data)).toBe(0);
  });

  it.each(manifest)('$file decodes from a local path and a file: URL with the same pixels', async ({ file, width, height }) => {
    const byPath = await loadImage(fixture(file), testOptions('desktop'));
    const byUrl = await loadImage(pathToFileURL(fixture(file)).href, testOptions('desktop'));
    expect(byPath.metadata).toEqual({ width, height, format: formatOf(file) });
    expect(byPath.fileName).toBe(file);
    expect(byUrl.sha256).toBe(byPath.sha256);
    expect(Buffer.compare(byUrl.image.data, byPath.image.data)).toBe(0);
  });
});
