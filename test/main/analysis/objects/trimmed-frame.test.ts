// CenterNet runs on the letterbox frame trimmed to the image (`preprocess.trim`): fewer
// convolutions over padding, the same objects as on the whole 512 px square.
import { afterAll, describe, expect, it } from 'vitest';
import { centernetDecode, detectObjects, DETECTION, CENTERNET_MODEL_ID } from '../../../../src-main/analysis/objects';
import {
  imageFeeds,
  imageInput,
  iou,
  letterboxFit,
  letterboxTensor,
  resizeRgb,
  trimmedFrame,
  validateFeeds,
  type RgbImage,
} from '../../../../src-main/inference';
import { createEngine, decodeFixture } from '../fixtures';

const engine = createEngine();
afterAll(() => engine.dispose());
const spec = engine.spec(CENTERNET_MODEL_ID);
const pre = imageInput(spec).pre;

/** The untrimmed feed: the fitted image at the top-left of the whole 512×512 frame. */
async function squareFeed(img: RgbImage) {
  const fit = letterboxFit(img.width, img.height, pre.size);
  return { input: letterboxTensor(await resizeRgb(img, fit.width, fit.height, { fit: 'fill', kernel: 'linear' }), pre) };
}

describe('CenterNet trimmed letterbox frame', () => {
  it('cuts the frame to the fitted image in steps of 32 px, never beyond 512', () => {
    expect(pre.trim).toBe(32);
    expect(trimmedFrame(letterboxFit(565, 800, pre.size), pre.size, 32)).toEqual([384, 512]); // fit 362×512
    expect(trimmedFrame(letterboxFit(1024, 768, pre.size), pre.size, 32)).toEqual([512, 384]);
    expect(trimmedFrame(letterboxFit(1920, 1080, pre.size), pre.size, 32)).toEqual([512, 288]);
    expect(trimmedFrame(letterboxFit(600, 600, pre.size), pre.size, 32)).toEqual([512, 512]);
    expect(trimmedFrame(letterboxFit(4000, 10, pre.size), pre.size, 32)).toEqual([512, 32]);
  });

  it('feeds the trimmed frame, which the session accepts; other sizes are refused', async () => {
    const img = await decodeFixture('tom_cruise.jpg'); // 565×800
    const { input } = await imageFeeds(img, spec);
    expect(input!.dims).toEqual([1, 512, 384, 3]);
    const io = { modelId: spec.id, inputs: spec.inputs };
    expect(() => validateFeeds(io, { input: input! })).not.toThrow();
    const bad = (dims: number[]) => ({ input: { data: new Float32Array(dims.reduce((a, b) => a * b, 1)), dims } });
    expect(() => validateFeeds(io, bad([1, 512, 380, 3]))).toThrow(/expected \[1,512,512,3\]/); // not a multiple of 32
    expect(() => validateFeeds(io, bad([1, 544, 384, 3]))).toThrow(/feed input has shape/); // beyond 512
    expect(() => validateFeeds(io, bad([1, 512, 512, 3]))).not.toThrow();
  });

  it.each(['tom_cruise.jpg', 'cat_chelsea.jpg', 'obama_biden_two_people.jpg', 'grace_hopper.jpg'])(
    'finds the same objects as the whole square on %s',
    async (file) => {
      const img = await decodeFixture(file);
      const trimmed = await detectObjects(img, engine);
      const square = centernetDecode(await engine.run(spec.id, await squareFeed(img)), img.width, img.height, DETECTION, pre.size);
      const confident = (ds: typeof trimmed) => ds.filter((d) => d.score >= 0.3);
      expect(confident(trimmed).map((d) => d.label)).toEqual(confident(square).map((d) => d.label));
      // The SE blocks average over the whole frame, padding included, so trimming moves scores and
      // boxes a little (measured: scores ≤ 0.05 apart, boxes IoU ≥ 0.79 on these fixtures).
      for (const [i, d] of confident(trimmed).entries()) {
        const s = confident(square)[i]!;
        expect(Math.abs(d.score - s.score)).toBeLessThan(0.06);
        expect(iou(d.box, s.box)).toBeGreaterThan(0.75);
      }
    },
  );
});
