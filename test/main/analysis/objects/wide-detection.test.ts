// A panorama reached the detector at a third of its frame's height (keep-aspect letterbox), and
// what is small in it was missed. A wide image is now searched in overlapping windows too
// (objects/wide.ts): the real CenterNet on images composed here from the fixture photos.
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CENTERNET_MODEL_ID,
  centernetDecode,
  DETECTION,
  detectObjects,
  mergeWindowDetections,
  type DetectedObject,
} from '../../../../src-main/analysis/objects';
import { wideWindows } from '../../../../src-main/analysis/wide-windows';
import { decodeImage, imageFeeds, imageInput, type ModelRunner, type RgbImage } from '../../../../src-main/inference';
import { sideBySidePng } from '../../../helpers/large-photos';
import { fixture } from '../../../helpers/paths';
import { createEngine } from '../fixtures';

const engine = createEngine();
afterAll(() => engine.dispose());

/** A fixture three times side by side (every object whole in one copy). */
const tripled = async (file: string): Promise<RgbImage> => decodeImage(await sideBySidePng(file, 3), { maxPixels: 50_000_000 });

/** The single whole-image pass, as before the windows. */
async function wholeOnly(img: RgbImage): Promise<DetectedObject[]> {
  const spec = engine.spec(CENTERNET_MODEL_ID);
  const out = await engine.run(CENTERNET_MODEL_ID, await imageFeeds(img, spec));
  return centernetDecode(out, img.width, img.height, DETECTION, imageInput(spec).pre.size);
}

const count = (objects: DetectedObject[], label: string, minScore: number): number =>
  objects.filter((d) => d.label === label && d.score >= minScore).length;

describe('objects in a panorama', () => {
  // Raw score 0.4 is where an object becomes a tag (OBJECT_CALIBRATION.present).
  it.each([
    ['coffee_cup.jpg', 'cup', 2],
    ['family_six_faces.jpg', 'person', 3],
  ])('%s tripled: the windows find the %s the whole image misses', async (file, label, more) => {
    const img = await tripled(file);
    const before = count(await wholeOnly(img), label, 0.4);
    const found = await detectObjects(img, engine);
    expect(count(found, label, 0.4)).toBeGreaterThanOrEqual(before + more);
    for (const d of found) {
      expect(d.box.left).toBeGreaterThanOrEqual(0);
      expect(d.box.left + d.box.width).toBeLessThanOrEqual(img.width + 0.01);
    }
  });

  it('runs the detector once for a usual photo, once plus once per window for a panorama', async () => {
    let runs = 0;
    const counting: ModelRunner = { spec: (id) => engine.spec(id), run: (id, feeds, signal) => (runs++, engine.run(id, feeds, signal)) };
    const img = await tripled('coffee_cup.jpg');
    await detectObjects(await decodeImage(await sharp(fixture('coffee_cup.jpg')).png().toBuffer(), { maxPixels: 50_000_000 }), counting);
    expect(runs).toBe(1);
    runs = 0;
    await detectObjects(img, counting);
    expect(runs).toBe(1 + wideWindows(img.width, img.height, 1 / 3).length);
  });
});

describe('mergeWindowDetections', () => {
  const person = (left: number, width: number, score: number): DetectedObject => ({
    label: 'person',
    score,
    box: { left, top: 10, width, height: 200 },
  });
  const windows = wideWindows(900, 300, 1 / 3); // [0, 450), [225, 675), [450, 900)

  it('keeps the best of the same thing seen twice', () => {
    const merged = mergeWindowDetections(
      [person(300, 100, 0.3)],
      [
        { window: windows[0]!, objects: [person(300, 100, 0.6)] },
        { window: windows[1]!, objects: [person(300, 100, 0.7)] },
        { window: windows[2]!, objects: [] },
      ],
      900,
      300,
      DETECTION,
    );
    expect(merged).toEqual([person(300, 100, 0.7)]);
  });

  it('drops what a window cut, not what touches the image border', () => {
    const merged = mergeWindowDetections(
      [],
      [
        // Cut by window 0's right side (an inner side) and by window 2's left: parts of things.
        { window: windows[0]!, objects: [person(400, 50, 0.9), person(0, 60, 0.5)] },
        { window: windows[1]!, objects: [] },
        { window: windows[2]!, objects: [person(452, 80, 0.8), person(830, 70, 0.4)] },
      ],
      900,
      300,
      DETECTION,
    );
    // Kept: the one at the image's left border (0..60) and the one at its right border (830..900).
    expect(merged.map((d) => [d.box.left, d.score])).toEqual([
      [0, 0.5],
      [830, 0.4],
    ]);
  });
});
