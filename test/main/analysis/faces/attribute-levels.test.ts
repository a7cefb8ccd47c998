/**
 * Attribute levels on the real models: `summary` runs gear on the SUMMARY_GEAR_FACES largest faces
 * only and takes the others' gender and age from faceres alone (ethnicity neutral), `full` (the
 * default) runs gear on every face, `none` runs neither; the faces, boxes and emotions are the same
 * at every level; the analyze service asks for `summary`. The run counter wraps the real engine.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFacesInImage, selectorPlan, type FaceAttributeLevel } from '../../../../src-main/analysis/faces';
import { runFaceres, SUMMARY_GEAR_FACES, summaryAttributes } from '../../../../src-main/analysis/faces/attributes';
import { eyeLineAngle, windowFromMesh } from '../../../../src-main/analysis/faces/mesh-align';
import { keyPoints } from '../../../../src-main/analysis/faces/mesh-geometry';
import { decodeImage, type ModelRunner } from '../../../../src-main/inference';
import { createAnalyzeService } from '../../../../src-main/services/analyze.service';
import { fixture } from '../../../helpers/paths';
import { openFaceStack } from './fixture-eval';

const stack = openFaceStack(1);
afterAll(() => stack.close());

function counting(): { runner: ModelRunner; runs: Map<string, number> } {
  const runs = new Map<string, number>();
  return {
    runs,
    runner: {
      spec: (id) => stack.engine.spec(id),
      run: (id, feeds, signal) => {
        runs.set(id, (runs.get(id) ?? 0) + 1);
        return stack.engine.run(id, feeds, signal);
      },
    },
  };
}

const load = (name: string) => decodeImage(readFileSync(fixture(name)), { maxPixels: 50e6 });
const opts = (attributes?: FaceAttributeLevel) => ({ minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']), attributes });

describe('attribute levels', () => {
  it('summary: gear on the largest faces only, the others from faceres alone; same faces as full', async () => {
    const img = await load('family_six_faces.jpg');
    const full = counting();
    const summary = counting();
    const a = await detectFacesInImage(img, opts(), full.runner);
    const b = await detectFacesInImage(img, opts('summary'), summary.runner);
    expect(a).toHaveLength(6);
    // gear runs one crop per run (FACE_BATCH_LIMIT): one run per face it sees.
    expect(full.runs.get('gear')).toBe(6);
    expect(summary.runs.get('gear')).toBe(SUMMARY_GEAR_FACES);
    expect(summary.runs.get('emotion')).toBe(full.runs.get('emotion'));
    expect(b.map((f) => f.box)).toEqual(a.map((f) => f.box));
    expect(b.map((f) => f.emotions)).toEqual(a.map((f) => f.emotions));
    expect(b.map((f) => f.glasses)).toEqual(a.map((f) => f.glasses));
    const largest = new Set([...b.keys()].sort((i, j) => b[j]!.box.width - b[i]!.box.width || i - j).slice(0, SUMMARY_GEAR_FACES));
    for (const [i, f] of b.entries()) {
      if (largest.has(i)) {
        // The largest faces get the full level's values.
        expect(f.male).toBeCloseTo(a[i]!.male, 5);
        expect(f.ethnicity).toEqual(a[i]!.ethnicity);
        continue;
      }
      // faceres on the reported face's own window: its male probability recalibrated, its expected age.
      const kp = keyPoints(f.mesh);
      const out = await runFaceres(img, windowFromMesh(f.mesh, eyeLineAngle(kp.rightEye, kp.leftEye), 1), stack.runner);
      expect(f.male).toBeCloseTo(summaryAttributes({ faceresMale: out['gender']![0]!, faceresAge: out['age']!, emotion: [] }).male, 5);
      const age = out['age']!.reduce((s, p, k) => s + p * k, 0) / out['age']!.reduce((s, p) => s + p, 0);
      expect(f.ageYears).toBeCloseTo(age, 3);
      expect(f.ethnicity).toEqual({ asian: 0.2, hispanic: 0.2, black: 0.2, white: 0.2, other: 0.2 });
      // The full level's gear moves the values.
      expect(a[i]!.male).not.toBeCloseTo(f.male, 5);
      expect(a[i]!.ethnicity).not.toEqual(f.ethnicity);
    }
  }, 60_000);

  it('analyze asks for summary: gear on the two largest faces, the same face boxes as at the full level', async () => {
    const faces = async (file: string, faceAttributes?: FaceAttributeLevel) => {
      const { runner, runs } = counting();
      const svc = createAnalyzeService({ runModel: stack.engine, faceRunner: runner, loader: stack.loader, faceAttributes });
      const { data } = await svc.analyze(fixture(file), { features: ['Faces'] });
      return { faces: data.faces!, gear: runs.get('gear') ?? 0 };
    };
    const byDefault = await faces('family_six_faces.jpg');
    const full = await faces('family_six_faces.jpg', 'full');
    expect(byDefault.gear).toBe(SUMMARY_GEAR_FACES);
    expect(full.gear).toBe(6);
    expect(byDefault.faces.map((f) => f.faceRectangle)).toEqual(full.faces.map((f) => f.faceRectangle));
    // A portrait keeps both models' vote: Grace Hopper is a woman at both levels.
    const portrait = await faces('grace_hopper.jpg');
    expect(portrait.gear).toBe(1);
    expect(portrait.faces.map((f) => f.gender)).toEqual(['Female']);
  }, 60_000);

  it('none (and skipAttributes): no gear, no emotion, neutral values', async () => {
    const img = await load('grace_hopper.jpg');
    for (const o of [opts('none'), { ...opts(), skipAttributes: true }]) {
      const { runner, runs } = counting();
      const [f] = await detectFacesInImage(img, o, runner);
      expect(runs.has('gear') || runs.has('emotion')).toBe(false);
      expect(runs.get('faceres')).toBe(1); // verification still needs its descriptor
      expect(f!.male).toBe(0.5);
      expect(f!.emotions.neutral).toBe(1);
    }
  }, 60_000);
});
