import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceEngine } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import type { GalleryService } from '../../../../src-main/services/gallery.service';
import { fixture } from '../../../helpers/paths';
import { facesOf, fixtureImage, iou, OBAMA_SECOND_REFERENCE, testEngine, testGallery, testLoader } from './support';

interface Truth {
  file: string;
  truth: { faces: { left: number; top: number; width: number; height: number; name?: string }[] };
}
const manifest = JSON.parse(readFileSync(fixture('manifest.json'), 'utf8')) as Truth[];
const truthOf = (file: string) => manifest.find((m) => m.file === file)!.truth.faces;

describe('person gallery on the fixtures (real models)', () => {
  let engine: InferenceEngine;
  let loader: ImageLoader;
  let gallery: GalleryService;

  beforeAll(async () => {
    engine = testEngine();
    loader = testLoader();
    gallery = testGallery(engine, loader);
    await gallery.addPerson('Barack Obama', [fixture('obama_portrait.jpg')]);
    await gallery.addPerson('Joe Biden', [fixture('biden_portrait.jpg')]);
  });
  afterAll(async () => {
    await gallery.dispose();
    await loader.close();
    await engine.dispose();
  });

  it('enrols one reference per person with its face box and a thumbnail', () => {
    const list = gallery.list();
    expect(list.map((e) => [e.kind, e.name, e.references])).toEqual([
      ['person', 'Barack Obama', 1],
      ['person', 'Joe Biden', 1],
    ]);
  });

  it('names Obama and Biden, with the right boxes, in the two-people photo from one portrait each', async () => {
    const img = await fixtureImage(loader, 'obama_biden_two_people.jpg');
    const celebrities = await gallery.matcher().matchCelebrities(img, await facesOf(engine, img));
    expect(celebrities.map((c) => c.name).sort()).toEqual(['Barack Obama', 'Joe Biden']);
    for (const c of celebrities) {
      expect(
        iou(
          c.faceRectangle,
          truthOf('obama_biden_two_people.jpg').find((t) => t.name === c.name)!,
        ),
      ).toBeGreaterThan(0.5);
      expect(c.confidence).toBeGreaterThan(0.5);
      expect(c.confidence).toBeLessThanOrEqual(1);
      expect(Number.isInteger(c.faceRectangle.left) && Number.isInteger(c.faceRectangle.width)).toBe(true);
    }
  });

  it('still names both once a second photo of Obama is enrolled', async () => {
    const obama = gallery.list().find((e) => e.name === 'Barack Obama')!;
    await gallery.addPerson('Barack Obama', [OBAMA_SECOND_REFERENCE]);
    try {
      expect(gallery.list().find((e) => e.name === 'Barack Obama')!.references).toBe(2);
      const img = await fixtureImage(loader, 'obama_biden_two_people.jpg');
      const celebrities = await gallery.matcher().matchCelebrities(img, await facesOf(engine, img));
      expect(celebrities.map((c) => c.name).sort()).toEqual(['Barack Obama', 'Joe Biden']);
    } finally {
      // Back to one reference for the other tests: re-enrol from the portrait alone.
      gallery.remove(obama.id);
      await gallery.addPerson('Barack Obama', [fixture('obama_portrait.jpg')]);
    }
  });

  it.each(['tom_cruise.jpg', 'grace_hopper.jpg', 'astronaut_eileen_collins.jpg', 'family_six_faces.jpg'])(
    'names nobody in %s',
    async (file) => {
      const img = await fixtureImage(loader, file);
      const faces = await facesOf(engine, img);
      expect(faces.length).toBeGreaterThan(0);
      expect(await gallery.matcher().matchCelebrities(img, faces)).toEqual([]);
    },
  );

  it('refuses a reference with several faces unless one is chosen, naming the faces', async () => {
    await expect(gallery.addPerson('Somebody', [fixture('obama_biden_two_people.jpg')])).rejects.toMatchObject({
      code: 'too-many-faces',
      message: expect.stringMatching(/2 faces .*--face <n>/),
    });
    await expect(gallery.addPerson('Somebody', [fixture('obama_biden_two_people.jpg')], { faceNumber: 3 })).rejects.toMatchObject({
      code: 'invalid-parameter',
    });
    const entry = await gallery.addPerson('Biden from the group photo', [fixture('obama_biden_two_people.jpg')], { faceNumber: 2 });
    expect(entry.references).toBe(1);
    gallery.remove(entry.id);
  });

  it('refuses a reference without a face and stores nothing for the whole call', async () => {
    const before = gallery.list();
    await expect(gallery.addPerson('Nobody', [fixture('obama_portrait.jpg'), fixture('coffee_cup.jpg')])).rejects.toMatchObject({
      code: 'no-faces',
    });
    expect(gallery.list()).toEqual(before);
  });
});
