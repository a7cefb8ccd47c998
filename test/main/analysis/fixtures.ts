// Shared test support for analysis tests: real fixture images, their ground truth, a real model runner.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeImage, type RgbImage } from '../../../src-main/inference/image';
import { InferenceEngine, loadManifest, type ModelRunner } from '../../../src-main/inference';
import { fixture, fixturesDir, repoRoot } from '../../helpers/paths';

/** One manifest entry of the shared fixtures (fields used by the analysis tests). */
export interface FixtureTruth {
  file: string;
  width: number;
  height: number;
  truth: {
    adult: boolean;
    faces: Array<{ left: number; top: number; width: number; height: number }>;
    objects?: string[];
    scene?: string[];
    isBW: boolean;
    clipArt?: boolean;
    lineDrawing?: boolean;
  };
}

export const manifest: FixtureTruth[] = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as FixtureTruth[];

const cache = new Map<string, Promise<RgbImage>>();
/** Decodes a fixture once per test file (decodeImage: EXIF-rotated RGB, alpha on white). */
export function decodeFixture(file: string): Promise<RgbImage> {
  let p = cache.get(file);
  if (!p) {
    p = decodeImage(readFileSync(fixture(file)), { maxPixels: 50_000_000 });
    cache.set(file, p);
  }
  return p;
}

/** The real converted models of `models/`, two threads as on the target machines. */
export function createEngine(): InferenceEngine {
  const modelsDir = join(repoRoot, 'models');
  return new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 2 });
}

/** The engine as the analysis layer's runner (it is one). */
export function runnerOf(engine: InferenceEngine): ModelRunner {
  return engine;
}

/** A runner with the real manifest's entries (so preprocessing is the shipped one) and a stand-in `run`. */
export function fakeRunner(run: ModelRunner['run']): ModelRunner {
  const models = loadManifest(join(repoRoot, 'models', 'manifest.json')).models;
  return { spec: (id) => models.get(id)!, run };
}
