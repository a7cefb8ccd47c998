import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFacesInImage, selectorPlan } from '../../../../src-main/analysis/faces';
import {
  CONTENT_PLACE_NET,
  cosine,
  decodeVector,
  describeFace,
  describePlace,
  FACE_DESCRIPTOR,
  PLACE_DESCRIPTOR,
} from '../../../../src-main/analysis/gallery/index';
import { CLASSIFIER_FEATURES } from '../../../../src-main/analysis/classifier';
import { CLASSIFIER_PLACE_NET } from '../../../helpers/place-nets';
import type { InferenceEngine } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import { GOLDEN_PERSON, GOLDEN_PLACE } from './golden-descriptors';
import { fixtureImage, testEngine, testLoader } from './support';

// Stored galleries stay valid only while the recipes produce the same vectors. If one of these
// fails after a change (here or in the faces module's mesh alignment or warp), bump the recipe's
// `method` in descriptor-spec.ts — stored references are then ignored and imports refused, as for
// a model change — and regenerate with `npx tsx test/bench/gallery.ts --write-golden`.
describe('descriptor recipes are unchanged (real models)', () => {
  let engine: InferenceEngine;
  let loader: ImageLoader;
  beforeAll(() => {
    engine = testEngine();
    loader = testLoader();
  });
  afterAll(async () => {
    await loader.close();
    await engine.dispose();
  });

  it(`${FACE_DESCRIPTOR.method}: obama_portrait.jpg`, async () => {
    const img = await fixtureImage(loader, 'obama_portrait.jpg');
    const runner = engine;
    const [face] = await detectFacesInImage(
      img,
      { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']), skipAttributes: true },
      runner,
    );
    const d = await describeFace(img, face!.box, runner);
    // dlib's cosines are compressed (two photos of one person score ~0.97), so the bar is tighter.
    expect(cosine(d!.vector, decodeVector(GOLDEN_PERSON))).toBeGreaterThan(0.999);
  });

  it(`${PLACE_DESCRIPTOR.method}: colosseum.jpg`, async () => {
    const img = await fixtureImage(loader, 'colosseum.jpg');
    const d = await describePlace(img, engine);
    expect(cosine(d.vector, decodeVector(GOLDEN_PLACE))).toBeGreaterThan(0.99);
    // The default network is the content net, the one the stored vectors were made by.
    const explicit = await describePlace(img, engine, undefined, CONTENT_PLACE_NET);
    expect(Array.from(explicit.vector)).toEqual(Array.from(d.vector));
  });

  it('another place network (the bench compares the classifier) is read window by window and pooled the same way', async () => {
    const img = await fixtureImage(loader, 'colosseum.jpg');
    const d = await describePlace(img, engine, undefined, CLASSIFIER_PLACE_NET);
    const content = await describePlace(img, engine);
    expect(d.vector).toHaveLength(CLASSIFIER_FEATURES);
    expect(d.crops.map((c) => c.rect)).toEqual(content.crops.map((c) => c.rect));
    expect(Math.hypot(...d.vector)).toBeCloseTo(1, 5);
    // A network whose output is not the declared length is refused, not pooled.
    await expect(describePlace(img, engine, undefined, { ...CLASSIFIER_PLACE_NET, dim: 1000 })).rejects.toThrow(
      /expected 1000 pooled features/,
    );
  });
});
