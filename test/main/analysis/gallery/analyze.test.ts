import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InferenceEngine } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import { analyzeModelsFromEngine, createAnalyzeService, type AnalyzeService } from '../../../../src-main/services/analyze.service';
import type { GalleryService } from '../../../../src-main/services/gallery.service';
import { fixture } from '../../../helpers/paths';
import { OBAMA_SECOND_REFERENCE, testEngine, testGallery, testLoader } from './support';

describe('analyze with galleries (real models)', () => {
  let engine: InferenceEngine;
  let loader: ImageLoader;
  let gallery: GalleryService;
  let analyze: AnalyzeService;

  beforeAll(async () => {
    engine = testEngine();
    loader = testLoader();
    gallery = testGallery(engine, loader);
    await gallery.addPerson('Barack Obama', [fixture('obama_portrait.jpg'), OBAMA_SECOND_REFERENCE]);
    await gallery.addPerson('Joe Biden', [fixture('biden_portrait.jpg')]);
    await gallery.addPlace('Colosseum', { latitude: 41.8902, longitude: 12.4922, mid: '/m/0d5qx' }, [fixture('colosseum.jpg')]);
    analyze = createAnalyzeService({ ...analyzeModelsFromEngine(engine), loader, gallery: gallery.matcher() });
  });
  afterAll(async () => {
    await gallery.dispose();
    await loader.close();
    await engine.dispose();
  });

  it('puts celebrities under people_ and no landmark document for a people photo', async () => {
    const { data } = await analyze.analyze(fixture('obama_biden_two_people.jpg'), {
      features: ['Categories'],
      details: ['Celebrities', 'Landmarks'],
    });
    const people = data.categories?.find((c) => c.name === 'people_');
    // Biden is named from his one portrait too (0.958 ≥ 0.955).
    expect(people?.detail?.celebrities?.map((c) => c.name).sort()).toEqual(['Barack Obama', 'Joe Biden']);
    expect(data.Landmarks).toBeUndefined();
  });

  it('puts the landmark under outdoor_/building_ and the spec 2.3 document at data.Landmarks', async () => {
    const { data } = await analyze.analyze(fixture('colosseum.jpg'), { features: ['Categories'], details: ['Landmarks'] });
    const host = data.categories?.find((c) => c.detail?.landmarks);
    expect(host?.name).toMatch(/^(outdoor|building)_$/);
    expect(host?.detail?.landmarks?.map((l) => l.name)).toEqual(['Colosseum']);
    expect(data.Landmarks).toEqual([
      expect.objectContaining({
        mid: '/m/0d5qx',
        description: 'Colosseum',
        locations: [{ latLng: { latitude: 41.8902, longitude: 12.4922 } }],
      }),
    ]);
  });

  it('runs no gallery when the details are not requested', async () => {
    const { data } = await analyze.analyze(fixture('colosseum.jpg'), { features: ['Categories'], details: [] });
    expect(data.categories?.some((c) => c.detail?.landmarks)).toBe(false);
    expect(data.Landmarks).toBeUndefined();
  });
});
