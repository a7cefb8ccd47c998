/**
 * The figures behind the gender fusion and the glasses rule (docs/faces.md "Gender" and "Glasses"),
 * printed by `npm run eval:faces`: every labelled face of attribute-levels.ts found by analyze's
 * search (minHeadScale 0.1, FRONTAL, `full` attributes), with
 * - both gender models' clipped male log-odds as the product computes them, the right counts of
 *   the shipped `GENDER_FUSION` and `GENDER_FACERES_ALONE`, a logistic-regression refit of both
 *   forms with its leave-one-out count, and the plain mean of the two log-odds;
 * - the shipped glasses rule against `PEOPLE_GLASSES` (people crops) and `GLASSES_TRUTH` (the
 *   fixtures' named faces).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  detectFacesInImage,
  eyeLineAngle,
  keyPoints,
  runOnWindow,
  selectorPlan,
  windowFromMesh,
  type FaceResult,
} from '../../../../src-main/analysis/faces';
import {
  combineAttributes,
  gearWindow,
  GENDER_FACERES_ALONE,
  GENDER_FUSION,
  GENDER_LOGIT_CLIP,
  req,
  runFaceres,
  summaryAttributes,
} from '../../../../src-main/analysis/faces/attributes';
import type { ModelRunner } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import type { PeopleManifestEntry } from '../../../fixtures/people/manifest-types';
import { repoRoot } from '../../../helpers/paths';
import { labelledFaces, matchOf, PEOPLE_GLASSES, type LabelledFace } from './attribute-levels';
import { GLASSES_TRUTH } from './fixture-eval';

type Glasses = FaceResult['glasses'];

/** One labelled face found by the search: both models' clipped male log-odds and the shipped outputs. */
export interface GenderFace {
  label: string;
  gender: 'M' | 'F';
  /** Clipped male log-odds of faceres and of gear (±GENDER_LOGIT_CLIP). */
  faceres: number;
  gear: number;
  /** Male probability of the shipped fusion and of faceres alone (attributes.ts). */
  fusionMale: number;
  faceresAloneMale: number;
  /** The search's own `full`-level male probability of the face (a check on the re-run models). */
  searchMale: number;
}

/** One face of known glasses: the truth and the shipped rule's call (null: the face was not found). */
export interface GlassesFace {
  label: string;
  set: 'fixtures' | 'people';
  truth: Glasses;
  got: Glasses | null;
}

const logit = (p: number): number => Math.log(p / (1 - p));

/**
 * faceres' and gear's clipped male log-odds, read back through the product's own mapping (the
 * clipping itself is private to attributes.ts): `summaryAttributes` is sigmoid(a · L(faceres) + b),
 * `combineAttributes` with faceres at 0.5 (L = 0) is sigmoid(g · L(gear) + c).
 */
function clippedLogOdds(faceresMale: number, gearGender: Float32Array): { faceres: number; gear: number } {
  const none = new Float32Array(0);
  const alone = summaryAttributes({ faceresMale, faceresAge: none, emotion: none }).male;
  const gearOnly = combineAttributes({ faceresMale: 0.5, faceresAge: none, gearGender, gearAge: none, gearRace: none, emotion: none }).male;
  const faceres = (logit(alone) - GENDER_FACERES_ALONE.bias) / GENDER_FACERES_ALONE.faceres;
  const gear = (logit(gearOnly) - GENDER_FUSION.bias) / GENDER_FUSION.gear;
  const eps = 1e-6;
  if (Math.abs(faceres) > GENDER_LOGIT_CLIP + eps || Math.abs(gear) > GENDER_LOGIT_CLIP + eps) {
    throw new Error(`log-odds outside the clip: faceres ${faceres}, gear ${gear}`);
  }
  return { faceres, gear };
}

/**
 * Runs analyze's face search once per image on every labelled face (attribute-levels.ts) and every
 * people crop; for the gender-labelled faces re-runs faceres and gear on the face's window as the
 * pipeline crops it (detect-faces.ts, mesh extent along the eye line) to read their outputs.
 */
export async function collectAttributeFaces(
  runner: ModelRunner,
  loader: Pick<ImageLoader, 'load'>,
): Promise<{ gender: GenderFace[]; glasses: GlassesFace[]; genderLabelled: number }> {
  const sets = labelledFaces();
  const dir = join(repoRoot, 'test', 'fixtures', 'people');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as PeopleManifestEntry[];
  type Job = { face: LabelledFace; set: GlassesFace['set']; glasses: Glasses | null };
  const byFile = new Map<string, Job[]>();
  const add = (job: Job): void => {
    byFile.set(job.face.file, [...(byFile.get(job.face.file) ?? []), job]);
  };
  for (const face of sets.fixtures) {
    add({ face, set: 'fixtures', glasses: GLASSES_TRUTH[basename(face.file)] ?? 'None' });
  }
  const peopleGender = new Map(sets.people.map((f) => [f.file, f]));
  for (const e of manifest) {
    const file = join(dir, e.file);
    const face = peopleGender.get(file) ?? { file, label: e.person ?? e.file, box: e.face, gender: null };
    add({ face, set: 'people', glasses: PEOPLE_GLASSES[e.file] ?? 'None' });
  }
  const gender: GenderFace[] = [];
  const glasses: GlassesFace[] = [];
  for (const [file, jobs] of byFile) {
    const { image } = await loader.load(file, undefined, { thumbnail: false });
    const faces = await detectFacesInImage(image, { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']), attributes: 'full' }, runner);
    for (const { face, set, glasses: truth } of jobs) {
      const found = matchOf(faces, face.box);
      if (truth) glasses.push({ label: face.label, set, truth, got: found?.glasses ?? null });
      if (!found || !face.gender) continue;
      const kp = keyPoints(found.mesh);
      const win = windowFromMesh(found.mesh, eyeLineAngle(kp.rightEye, kp.leftEye), 1);
      const faceresMale = req(await runFaceres(image, win, runner), 'gender')[0]!;
      const gearGender = req(await runOnWindow(runner, 'gear', image, gearWindow(win)), 'gender');
      const none = new Float32Array(0);
      gender.push({
        label: face.label,
        gender: face.gender,
        ...clippedLogOdds(faceresMale, gearGender),
        fusionMale: combineAttributes({ faceresMale, faceresAge: none, gearGender, gearAge: none, gearRace: none, emotion: none }).male,
        faceresAloneMale: summaryAttributes({ faceresMale, faceresAge: none, emotion: none }).male,
        searchMale: found.male,
      });
    }
  }
  const genderLabelled = [...sets.fixtures, ...sets.people].filter((f) => f.gender).length;
  return { gender, glasses, genderLabelled };
}

/** A logistic model: male log-odds = Σ weights[k] · x[k] + bias. */
export interface LogisticModel {
  weights: number[];
  bias: number;
}

/**
 * Maximum-likelihood logistic regression with a light L2 penalty `l2` on the weights (not the
 * bias), by Newton's method from zero: deterministic, converges in a few steps on these features.
 */
export function fitLogistic(x: readonly number[][], y: readonly boolean[], l2 = 0.01): LogisticModel {
  const d = (x[0]?.length ?? 0) + 1;
  const theta = new Array<number>(d).fill(0);
  const row = (i: number): number[] => [...x[i]!, 1];
  for (let iter = 0; iter < 100; iter++) {
    const grad = theta.map((t, k) => (k < d - 1 ? l2 * t : 0));
    const hess = theta.map((_, a) => theta.map((__, b) => (a === b && a < d - 1 ? l2 : 0)));
    for (let i = 0; i < x.length; i++) {
      const r = row(i);
      const p = 1 / (1 + Math.exp(-r.reduce((s, v, k) => s + v * theta[k]!, 0)));
      const e = p - (y[i] ? 1 : 0);
      for (let a = 0; a < d; a++) {
        grad[a]! += e * r[a]!;
        for (let b = 0; b < d; b++) hess[a]![b]! += p * (1 - p) * r[a]! * r[b]!;
      }
    }
    const step = solve(hess, grad);
    let size = 0;
    for (let k = 0; k < d; k++) {
      theta[k]! -= step[k]!;
      size = Math.max(size, Math.abs(step[k]!));
    }
    if (size < 1e-10) break;
  }
  return { weights: theta.slice(0, d - 1), bias: theta[d - 1]! };
}

// Gaussian elimination with partial pivoting (a d × d system, d ≤ 3 here).
function solve(m: number[][], v: number[]): number[] {
  const a = m.map((r, i) => [...r, v[i]!]);
  const n = a.length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    [a[c], a[p]] = [a[p]!, a[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= n; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return a.map((r, i) => r[n]! / r[i]!);
}

/** Male log-odds of `model` on features `x`. */
export function predictLogOdds(model: LogisticModel, x: readonly number[]): number {
  return model.weights.reduce((s, w, k) => s + w * x[k]!, model.bias);
}

/** Right calls (log-odds ≥ 0 ⇔ male) when each face is predicted by a fit without it. */
export function leaveOneOutRight(x: readonly number[][], y: readonly boolean[], l2 = 0.01): number {
  let right = 0;
  for (let i = 0; i < x.length; i++) {
    const keep = (_: unknown, j: number): boolean => j !== i;
    const model = fitLogistic(x.filter(keep), y.filter(keep), l2);
    if (predictLogOdds(model, x[i]!) >= 0 === y[i]) right++;
  }
  return right;
}

/** The gender table's rows: shipped, refit in-sample, leave-one-out; and the plain mean. */
export function genderFigures(faces: readonly GenderFace[]): {
  rows: Array<{ form: string; shipped: string; shippedRight: number; refit: LogisticModel; refitRight: number; looRight: number }>;
  meanRight: number;
  searchMismatches: number;
} {
  const y = faces.map((f) => f.gender === 'M');
  const right = (male: (f: GenderFace) => boolean): number => faces.filter((f, i) => male(f) === y[i]).length;
  const forms = [
    {
      form: 'fusion: faceres + gear',
      shipped: `${GENDER_FUSION.faceres.toFixed(1)} · L(faceres) + ${GENDER_FUSION.gear.toFixed(1)} · L(gear) ${sign(GENDER_FUSION.bias)}`,
      x: faces.map((f) => [f.faceres, f.gear]),
      shippedRight: right((f) => f.fusionMale >= 0.5),
    },
    {
      form: 'faceres alone',
      shipped: `${GENDER_FACERES_ALONE.faceres.toFixed(1)} · L(faceres) ${sign(GENDER_FACERES_ALONE.bias)}`,
      x: faces.map((f) => [f.faceres]),
      shippedRight: right((f) => f.faceresAloneMale >= 0.5),
    },
  ];
  return {
    rows: forms.map(({ form, shipped, x, shippedRight }) => {
      const refit = fitLogistic(x, y);
      return {
        form,
        shipped,
        shippedRight,
        refit,
        refitRight: x.filter((xi, i) => predictLogOdds(refit, xi) >= 0 === y[i]).length,
        looRight: leaveOneOutRight(x, y),
      };
    }),
    meanRight: right((f) => (f.faceres + f.gear) / 2 >= 0),
    searchMismatches: faces.filter((f) => Math.abs(f.fusionMale - f.searchMale) > 1e-3).length,
  };
}

/** Formats a bias as ` + 1.2` / ` − 1.2` after the weighted terms. */
export function sign(b: number, digits = 1): string {
  return `${b < 0 ? '−' : '+'} ${Math.abs(b).toFixed(digits)}`;
}
