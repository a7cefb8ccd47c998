/**
 * The calibration images of the int8 build: face crops (test/fixtures/people) and face-free
 * photos (test/fixtures/negatives), every 4th file in name order. Never the shared fixtures
 * (test/fixtures/images) that the accuracy evals and the parity tests judge the int8 models on.
 * Overlap to keep in mind: the gallery calibration (`npm run eval:gallery`) also describes the
 * people crops, and the faces eval counts false faces on the negatives; calibration only sets one
 * activation range per tensor from them.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const CALIBRATION_SETS = [
  { dir: 'test/fixtures/people', step: 4, limit: 40 },
  { dir: 'test/fixtures/negatives', step: 4, limit: 30 },
] as const;

/** One line for the manifest: where the calibration images came from. */
export const CALIBRATION_TEXT = CALIBRATION_SETS.map((s) => `${s.dir} (every ${s.step}th image in name order, ${s.limit} images)`).join(
  ' + ',
);

const IMAGE = /\.(jpe?g|png|webp)$/i;

/** Absolute paths of the calibration images under `root` (the repository), in a fixed order. */
export function calibrationFiles(root: string): string[] {
  return CALIBRATION_SETS.flatMap((s) =>
    readdirSync(join(root, s.dir))
      .filter((f) => IMAGE.test(f))
      .sort()
      .filter((_, i) => i % s.step === 0)
      .slice(0, s.limit)
      .map((f) => join(root, s.dir, f)),
  );
}
