// `npm run eval:gallery`: calibration of the person gallery (docs/galleries.md "People").
// Describes every fixture face and every crop of test/fixtures/people plus 8 synthetic variations
// of each, then prints the impostor and genuine score distributions (and d′), the false-match rate
// at the shipped threshold (with its 95 % upper bound), open-set naming with every identity
// enrolled, the threshold a 1-in-10 000 false-match target would give, and the fixture pair
// (Obama and Biden portraits ~ the two-people photo).
// `-- --descriptors a,b` compares candidate recipes (gallery-candidates.ts; default: the shipped
// one), `-- --models <dir>` reads the models from a folder built by
// tooling/experiments/face-embedders.ts (for the unshipped embedders); `-- --cache <file>` keeps
// the descriptors in JSON files (`<file>.<recipe>.json`) and reuses them on the next run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FACE_DESCRIPTOR, PERSON_MATCH, cosine, decodeVector, encodeVector } from '../../src-main/analysis/gallery/index';
import { InferenceEngine, loadManifest } from '../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../src-main/intake';
import { repoRoot } from '../helpers/paths';
import {
  enrolIdentities,
  genuineScores,
  impostorScores,
  openSetNaming,
  rateAtOrAbove,
  upperBound95,
  type NamingRule,
} from '../main/analysis/gallery/calibration';
import { describeCalibrationFacesBy, type FaceSample } from '../main/analysis/gallery/people-set';
import { CANDIDATES, variantRunner, type FaceDescriber } from './gallery-candidates';

/** The false-match target per impostor comparison. */
const TARGET_FMR = 1e-4;

const argOf = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const cacheFile = argOf('--cache');
const chosen: [string, FaceDescriber][] = (argOf('--descriptors')?.split(',') ?? [FACE_DESCRIPTOR.method]).map((name) => {
  const describe = CANDIDATES[name];
  if (!describe) throw new Error(`unknown descriptor ${name}; known: ${Object.keys(CANDIDATES).join(', ')}`);
  return [name, describe];
});
// A models folder with the candidate embedders (tooling/experiments/face-embedders.ts), else the shipped one.
const modelsDir = argOf('--models') ?? join(repoRoot, 'models');
const cachePath = (name: string): string | undefined => (cacheFile ? `${cacheFile}.${name}.json` : undefined);

async function describeMissing(): Promise<Map<string, FaceSample[]>> {
  const out = new Map<string, FaceSample[]>();
  const missing: [string, FaceDescriber][] = [];
  for (const [name, spec] of chosen) {
    const file = cachePath(name);
    if (file && existsSync(file)) {
      const rows = JSON.parse(readFileSync(file, 'utf8')) as (Omit<FaceSample, 'vector'> & { vector: string })[];
      out.set(
        name,
        rows.map((r) => ({ ...r, vector: decodeVector(r.vector) })),
      );
    } else missing.push([name, spec]);
  }
  if (!missing.length) return out;
  const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
  const loader = createImageLoader(intakeOptions('desktop'));
  try {
    const lists = await describeCalibrationFacesBy(
      variantRunner(engine),
      loader,
      missing.map(([, s]) => s),
      undefined,
      (done, total) => {
        if (done % 25 === 0 || done === total) process.stderr.write(`described ${done}/${total} faces\n`);
      },
    );
    missing.forEach(([name], k) => {
      out.set(name, lists[k]!);
      const file = cachePath(name);
      if (file) writeFileSync(file, JSON.stringify(lists[k]!.map((s) => ({ ...s, vector: encodeVector(s.vector) }))));
    });
    return out;
  } finally {
    await loader.close();
    await engine.dispose();
  }
}

const stats = (xs: ArrayLike<number>): string => {
  const s = Float64Array.from(xs).sort();
  const q = (p: number): string => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(3);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const sd = Math.sqrt(s.reduce((a, b) => a + (b - mean) ** 2, 0) / s.length);
  return `n=${s.length} mean ${mean.toFixed(3)} sd ${sd.toFixed(3)} min ${q(0)} p1 ${q(0.01)} p5 ${q(0.05)} median ${q(0.5)} p99 ${q(0.99)} p99.99 ${q(0.9999)} max ${q(1)}`;
};
const meanSd = (xs: ArrayLike<number>): [number, number] => {
  let m = 0;
  for (let i = 0; i < xs.length; i++) m += xs[i]!;
  m /= xs.length;
  let v = 0;
  for (let i = 0; i < xs.length; i++) v += (xs[i]! - m) ** 2;
  return [m, Math.sqrt(v / xs.length)];
};

const described = await describeMissing();
for (const [name] of chosen) {
  console.log(`\n===== ${name} =====`);
  evaluate(described.get(name)!, name === FACE_DESCRIPTOR.method ? PERSON_MATCH : undefined);
}

function evaluate(all: FaceSample[], shipped?: NamingRule): void {
  const ids = enrolIdentities(all);
  const originals = all.filter((s) => s.variant === 'original');
  const people = new Set(originals.map((s) => s.person));
  console.log(
    `faces: ${originals.length} originals (${people.size} identities, ${originals.filter((s) => s.unknown).length} unknown-identity faces), ` +
      `${all.length - originals.length} variations; ${ids.length} enrolled identities`,
  );

  const impostor = impostorScores(all, ids);
  const genuine = genuineScores(all, ids);
  console.log(`impostor comparisons   ${stats(impostor)}`);
  console.log(`genuine, other photo   ${stats(genuine.crossPhoto)}`);
  console.log(`genuine, variation     ${stats(genuine.variation)}`);

  const sorted = Float64Array.from(impostor).sort().reverse();
  const allowed = Math.floor(impostor.length * TARGET_FMR);
  console.log(
    `threshold for FMR ≤ ${TARGET_FMR}: above the ${allowed + 1}-th highest impostor score, ${sorted[allowed]!.toFixed(4)} ` +
      `(max ${sorted[0]!.toFixed(4)})`,
  );

  const report = (label: string, rule: NamingRule): void => {
    const k = Math.round(rateAtOrAbove(impostor, rule.minScore) * impostor.length);
    const open = openSetNaming(all, ids, rule);
    console.log(
      `${label} minScore ${rule.minScore} margin ${rule.minMargin}: impostor comparisons ≥ threshold ${k}/${impostor.length} ` +
        `(FMR ${(k / impostor.length).toExponential(2)}, 95 % upper bound ${upperBound95(k, impostor.length).toExponential(2)}); ` +
        `genuine ≥ threshold: other photo ${(100 * rateAtOrAbove(genuine.crossPhoto, rule.minScore)).toFixed(1)} %, ` +
        `variation ${(100 * rateAtOrAbove(genuine.variation, rule.minScore)).toFixed(1)} %; ` +
        `open set: false names ${open.falseNames}/${open.probes} faces, true names ${open.trueNames}/${open.genuineProbes}, wrong names ${open.wrongNames}`,
    );
  };
  const [gm, gs] = meanSd(genuine.crossPhoto);
  const [im, is] = meanSd(impostor);
  console.log(`d′ (other photo vs impostor) ${((gm - im) / Math.sqrt((gs * gs + is * is) / 2)).toFixed(2)}`);
  if (shipped) report('shipped', shipped);
  const point = sorted[allowed]!;
  // Candidates from the 1-in-10 000 point up to just above the highest impostor, rounded up to 0.01.
  const candidates = new Set([point + 1e-6, sorted[0]! + 1e-6].map((t) => Math.ceil(t * 100) / 100));
  for (const t of [...candidates].sort()) report('candidate', { minScore: t, minMargin: PERSON_MATCH.minMargin });

  // The fixture pair: each portrait against the same person's and the other's face in the two-people photo.
  const face = (photo: string, person: string): FaceSample | undefined =>
    all.find((x) => x.variant === 'original' && x.photo === photo && x.person === person);
  const pair = ['Barack Obama', 'Joe Biden'];
  const portraits = { 'Barack Obama': 'obama_portrait.jpg', 'Joe Biden': 'biden_portrait.jpg' } as const;
  const cells: string[] = [];
  for (const who of pair)
    for (const ref of pair) {
      const a = face('obama_biden_two_people.jpg', who);
      const b = face(portraits[ref as keyof typeof portraits], ref);
      cells.push(
        `${who.split(' ')[1]} in the two-people photo ~ ${ref.split(' ')[1]} portrait ${a && b ? cosine(a.vector, b.vector).toFixed(3) : 'n/a'}`,
      );
    }
  console.log(`fixture pair: ${cells.join('; ')}`);

  // The closest impostors, to see who they are.
  const close: { score: number; text: string }[] = [];
  for (const s of all)
    for (const id of ids)
      if (s.person !== id.person && !(s.unknown && id.unknown && s.group === id.group)) {
        const score = Math.max(...id.refs.map((r) => r.vector.reduce((a, v, i) => a + v * s.vector[i]!, 0)));
        if (score >= sorted[Math.min(sorted.length - 1, 30)]!)
          close.push({ score, text: `${s.person} [${s.variant}, ${s.photo}] ~ ${id.person}` });
      }
  close.sort((a, b) => b.score - a.score);
  console.log(
    `closest impostors:\n${close
      .slice(0, 12)
      .map((c) => `  ${c.score.toFixed(3)}  ${c.text}`)
      .join('\n')}`,
  );
}
