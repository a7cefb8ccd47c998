// `npm run eval:gallery`: calibration of the person gallery (docs/galleries.md "People").
// Describes every fixture face and every crop of test/fixtures/people plus 8 synthetic variations
// of each, then prints the impostor and genuine score distributions, the false-match rate at the
// shipped threshold (with its 95 % upper bound), open-set naming with every identity enrolled,
// and the threshold a 1-in-10 000 false-match target would give.
// `-- --cache <file>` keeps the descriptors in a JSON file and reuses it on the next run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERSON_MATCH, decodeVector, encodeVector } from '../../src-main/analysis/gallery/index';
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
import { describeCalibrationFaces, type FaceSample } from '../main/analysis/gallery/people-set';

/** The false-match target per impostor comparison. */
const TARGET_FMR = 1e-4;

const cacheArg = process.argv.indexOf('--cache');
const cacheFile = cacheArg > 0 ? process.argv[cacheArg + 1] : undefined;

async function samples(): Promise<FaceSample[]> {
  if (cacheFile && existsSync(cacheFile)) {
    const rows = JSON.parse(readFileSync(cacheFile, 'utf8')) as (Omit<FaceSample, 'vector'> & { vector: string })[];
    return rows.map((r) => ({ ...r, vector: decodeVector(r.vector) }));
  }
  const modelsDir = join(repoRoot, 'models');
  const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 1 });
  const loader = createImageLoader(intakeOptions('desktop'));
  try {
    const out = await describeCalibrationFaces(engine, loader, undefined, (done, total) => {
      if (done % 25 === 0 || done === total) process.stderr.write(`described ${done}/${total} faces\n`);
    });
    if (cacheFile) writeFileSync(cacheFile, JSON.stringify(out.map((s) => ({ ...s, vector: encodeVector(s.vector) }))));
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

const all = await samples();
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
report('shipped', PERSON_MATCH);
for (const t of [0.56, 0.6, 0.65, 0.7, 0.75]) report('candidate', { minScore: t, minMargin: PERSON_MATCH.minMargin });

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
console.log(`closest impostors:\n${close.map((c) => `  ${c.score.toFixed(3)}  ${c.text}`).join('\n')}`);
