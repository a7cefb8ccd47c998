import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels } from '../../../../src-main/analysis';
import { decodeImage } from '../../../../src-main/inference';
import { cutOutOnWhite } from '../../../helpers/cut-out';
import { createEngine, runnerOf } from '../fixtures';

// A photographed thing cut out on a white page (a product shot) is a photo, and its page is no
// scene: without the isolated-figure rule the coffee cup below was "a bottle in the snow", with
// sky 1.00 and snow 0.92 (bright smooth white in the lower half and at the top).
describe('photos cut out on a white page (real models)', () => {
  const engine = createEngine();
  const runModel = runnerOf(engine);
  afterAll(() => engine.dispose());

  it('are photos, named by what is shown, without sky, snow or an outdoor setting from the page', async () => {
    for (const file of ['coffee_cup.jpg', 'astronaut_eileen_collins.jpg', 'cat_chelsea.jpg']) {
      const img = await decodeImage(new Uint8Array(await cutOutOnWhite(file)), { maxPixels: 1e7 });
      const { data } = await analyzePixels(img, new Set(['Tags', 'Description', 'ImageType'] as const), new Set(), { runModel });
      expect(data.imageType, file).toEqual({ clipArtType: 0, lineDrawingType: 0 });
      const caption = data.description!.captions[0]!.text;
      expect(caption, file).not.toMatch(/clip art|snow|outdoors|grass|sky|night/);
      const tags = new Map(data.tags!.map((t) => [t.name, t.confidence]));
      for (const scene of ['sky', 'snow', 'outdoor', 'grass']) expect(tags.get(scene) ?? 0, `${file}: ${scene}`).toBeLessThan(0.5);
    }
    const cat = await decodeImage(new Uint8Array(await cutOutOnWhite('cat_chelsea.jpg')), { maxPixels: 1e7 });
    const { data } = await analyzePixels(cat, new Set(['Description'] as const), new Set(), { runModel });
    expect(data.description!.captions[0]!.text).toBe('a cat');
  });
});
