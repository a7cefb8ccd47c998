import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceEngine } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import { GalleryService } from '../../../../src-main/services/gallery.service';
import { createTestDb } from '../../../helpers/db';
import { fixture } from '../../../helpers/paths';
import { facesOf, fixtureImage, testEngine, testGallery, testLoader } from './support';

describe('gallery export, import and model changes (real models)', () => {
  let engine: InferenceEngine;
  let loader: ImageLoader;
  let source: GalleryService;

  beforeAll(async () => {
    engine = testEngine();
    loader = testLoader();
    source = testGallery(engine, loader);
    await source.addPerson('Barack Obama', [fixture('obama_portrait.jpg')]);
    await source.addPlace('Colosseum', { latitude: 41.8902, longitude: 12.4922 }, [fixture('colosseum.jpg')]);
  });
  afterAll(async () => {
    await source.dispose();
    await loader.close();
    await engine.dispose();
  });

  it('round-trips both galleries through JSON, descriptors and thumbnails included', async () => {
    const file = JSON.parse(JSON.stringify(source.exportAll()));
    expect(file).toMatchObject({
      format: 'picscan-gallery',
      version: 1,
      models: { 'dlib-face-descriptor': { sha256: engine.spec('dlib-face-descriptor').sha256 } },
    });
    const [person, place] = file.entries;
    expect(person.references[0]).toMatchObject({
      modelId: 'dlib-face-descriptor',
      method: 'dlib-resnet-upright-0.9x-v1',
      dim: 128,
      thumbnailType: 'image/jpeg',
    });
    expect(place.references[0]).toMatchObject({ modelId: 'nsfw-mobilenet-v2-mid', dim: 1792, face: null, thumbnailType: 'image/jpeg' });
    // JPEG magic FF D8 FF, base64 "/9j/".
    expect(person.references[0].thumbnail).toMatch(/^\/9j\//);
    const target = testGallery(engine, loader);
    expect(target.importAll(file)).toEqual({ entries: 2, created: 2, merged: 0, references: 2 });
    const strip = (l: ReturnType<GalleryService['list']>) => l.map(({ id: _id, createdAt: _c, ...rest }) => rest);
    expect(strip(target.list())).toEqual(strip(source.list()));
    expect(target.exportAll().entries).toEqual(source.exportAll().entries);
    // The imported descriptors work: Obama is named in his portrait.
    const img = await fixtureImage(loader, 'obama_portrait.jpg');
    expect((await target.matcher().matchCelebrities(img, await facesOf(engine, img))).map((c) => c.name)).toEqual(['Barack Obama']);
    await target.dispose();
  });

  it('refuses a file made with another model file, naming the model and both checksums', () => {
    const file = source.exportAll();
    file.entries[0]!.references[0]!.modelSha256 = 'f'.repeat(64);
    const target = testGallery(engine, loader);
    expect(() => target.importAll(file)).toThrow(
      /dlib-face-descriptor \(sha256 ffffffffffff….*this install uses dlib-face-descriptor \(sha256/,
    );
    expect(target.list()).toEqual([]);
  });

  it('refuses a file of another recipe or a malformed file', () => {
    const target = testGallery(engine, loader);
    const file = source.exportAll();
    file.entries[1]!.references[0]!.method = 'mnv2-something-else';
    expect(() => target.importAll(file)).toThrow(/Descriptors from another model are not comparable/);
    expect(() => target.importAll({ format: 'other' })).toThrow(/Not a picscan gallery file/);
    expect(target.list()).toEqual([]);
  });

  it('refuses a name longer than enrolment allows, naming the entry', () => {
    const target = testGallery(engine, loader);
    const file = source.exportAll();
    file.entries[0]!.name = 'A'.repeat(5000);
    expect(() => target.importAll(file)).toThrow(/^Gallery file not imported: entry 1 \("A{40}…"\): name: .*200/);
    expect(target.list()).toEqual([]);
  });

  it('refuses a descriptor that is not finite or is all zeros (it could never match)', () => {
    const target = testGallery(engine, loader);
    const withVector = (values: number[]) => {
      const file = source.exportAll();
      const v = new Float32Array(128);
      values.forEach((x, i) => (v[i] = x));
      file.entries[0]!.references[0]!.descriptor = Buffer.from(v.buffer).toString('base64');
      return file;
    };
    expect(() => target.importAll(withVector([0.5, NaN]))).toThrow(/"Barack Obama".* value that is not a finite number/);
    expect(() => target.importAll(withVector([Infinity]))).toThrow(/"Barack Obama".* value that is not a finite number/);
    expect(() => target.importAll(withVector([]))).toThrow(/"Barack Obama".* all zeros/);
    expect(target.list()).toEqual([]);
  });

  it('says a descriptor has the wrong length rather than blaming the model', () => {
    const target = testGallery(engine, loader);
    const file = source.exportAll();
    file.entries[0]!.references[0]!.dim = 64;
    expect(() => target.importAll(file)).toThrow(/"Barack Obama" has the wrong descriptor length \(64, expected 128\)/);
    const short = source.exportAll();
    const ref = short.entries[0]!.references[0]!;
    ref.descriptor = Buffer.from(ref.descriptor, 'base64')
      .subarray(0, 64 * Float32Array.BYTES_PER_ELEMENT)
      .toString('base64');
    expect(() => target.importAll(short)).toThrow(/"Barack Obama" has the wrong descriptor length \(64, expected 128\)/);
    expect(target.list()).toEqual([]);
  });

  it('counts the entries it stored, merging names that differ only in case like enrolment', () => {
    const file = source.exportAll();
    file.entries.push({ ...file.entries[0]!, name: 'barack obama' });
    const target = testGallery(engine, loader);
    expect(target.importAll(file)).toEqual({ entries: 2, created: 2, merged: 1, references: 3 });
    expect(target.list().map((e) => [e.name, e.references])).toEqual([
      ['Barack Obama', 2],
      ['Colosseum', 1],
    ]);
    // Again into the same database: every entry of the file joins an existing one.
    expect(target.importAll(file)).toEqual({ entries: 2, created: 0, merged: 3, references: 3 });
    expect(target.list()).toHaveLength(2);
  });

  it('ignores stored references once the installed model changes, instead of mixing spaces', async () => {
    const db = createTestDb();
    const before = new GalleryService({ db, engine, loader });
    await before.addPerson('Barack Obama', [fixture('obama_portrait.jpg')]);
    const upgraded = {
      spec: (id: string) => ({ ...engine.spec(id), sha256: id === 'dlib-face-descriptor' ? '0'.repeat(64) : engine.spec(id).sha256 }),
      run: engine.run.bind(engine),
    };
    const after = new GalleryService({ db, engine: upgraded, loader });
    const img = await fixtureImage(loader, 'obama_portrait.jpg');
    expect(await after.matcher().matchCelebrities(img, await facesOf(engine, img))).toEqual([]);
    expect(after.list()).toHaveLength(1);
    await before.dispose();
    await after.dispose();
  });

  it('rebuilds the matcher after a change made through another service on the same database', async () => {
    const db = createTestDb();
    const app = new GalleryService({ db, engine, loader });
    const cli = new GalleryService({ db, engine, loader });
    const img = await fixtureImage(loader, 'obama_portrait.jpg');
    const faces = await facesOf(engine, img);
    expect(await app.matcher().matchCelebrities(img, faces)).toEqual([]);
    await cli.addPerson('Barack Obama', [fixture('obama_portrait.jpg')]);
    expect((await app.matcher().matchCelebrities(img, faces)).map((c) => c.name)).toEqual(['Barack Obama']);
    cli.remove(cli.list()[0]!.id);
    expect(await app.matcher().matchCelebrities(img, faces)).toEqual([]);
    await app.dispose();
    await cli.dispose();
  });
});
