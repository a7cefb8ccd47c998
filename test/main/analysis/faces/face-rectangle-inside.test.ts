// A face cut by the photo's edge (the forehead above the frame) has a face box reaching outside
// the image; analyze's faceRectangle is the part inside it (an Azure face rectangle lies in the
// image). Real models on a fixture portrait cropped here.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels, faceEvidenceFromResults } from '../../../../src-main/analysis';
import { detectFacesInImage, selectorPlan } from '../../../../src-main/analysis/faces';
import { insideImage } from '../../../../src-main/analysis/people';
import type { RgbImage } from '../../../../src-main/inference';
import { fixture } from '../../../helpers/paths';
import { openFaceStack } from './fixture-eval';

const stack = openFaceStack(2);
afterAll(() => stack.close());

async function foreheadCut(): Promise<RgbImage> {
  const { data, info } = await sharp(readFileSync(fixture('tom_cruise.jpg')))
    .extract({ left: 0, top: 340, width: 565, height: 460 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

describe('face rectangles at the edge of the photo', () => {
  it('analyze reports the part of a cut face inside the image', async () => {
    const img = await foreheadCut();
    const detectFaces = async (i: RgbImage) =>
      faceEvidenceFromResults(await detectFacesInImage(i, { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']) }, stack.runner));
    const evidence = await detectFaces(img);
    expect(evidence).toHaveLength(1);
    expect(evidence[0]!.box.top).toBeLessThan(0); // the search's box reaches above the frame
    const { data } = await analyzePixels(img, new Set(['Faces'] as const), new Set(), { runModel: stack.engine, detectFaces });
    const [r] = data.faces!.map((f) => f.faceRectangle);
    expect(r!.left).toBeGreaterThanOrEqual(0);
    expect(r!.top).toBe(0);
    expect(r!.left + r!.width).toBeLessThanOrEqual(img.width);
    expect(r!.top + r!.height).toBe(evidence[0]!.box.top + evidence[0]!.box.height);
  }, 60_000);

  it('insideImage keeps boxes inside as they are and clips the rest, never below 1 × 1 px', () => {
    expect(insideImage({ left: 10, top: 20, width: 30, height: 40 }, 100, 100)).toEqual({ left: 10, top: 20, width: 30, height: 40 });
    expect(insideImage({ left: -5, top: -49, width: 60, height: 100 }, 50, 80)).toEqual({ left: 0, top: 0, width: 50, height: 51 });
    expect(insideImage({ left: 120, top: 5, width: 10, height: 10 }, 100, 100)).toEqual({ left: 99, top: 5, width: 1, height: 10 });
  });
});
