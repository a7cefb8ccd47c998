// `npx tsx tooling/image-type/photo-probe.ts`: generates models/image-type/photo-probe.json, the
// photo probe of the image type (src-main/analysis/image-type/photo-probe.ts), and prints the
// figures behind IMAGE_TYPE_RULES.photoProbe (docs/analysis.md "ImageType").
//
// A logistic regression, P(photo) = σ(b + w · standardised pooled features), trained by full-batch
// gradient descent with L2 weight decay and class-balanced weights on the `train` rows of the
// probe work file (`npx tsx tooling/image-type/probe-data.ts`) plus the Open Clip Art reference
// drawings as PNG and as line art from the drawing vocabulary's work files
// (`npx tsx tooling/drawings/embed.ts`, with and without `--style line`). Deterministic: the same
// work files give the same bytes.
//   --lambda X   L2 weight decay (default 0.1)
//   --dry        print the figures, write nothing
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLASSIFIER_FEATURES } from '../../src-main/analysis/classifier';
import { clipArtScore, IMAGE_TYPE_RULES } from '../../src-main/analysis/image-type/classify';
import { photoProbability, type PhotoProbe } from '../../src-main/analysis/image-type/photo-probe';
import { arg } from '../convert/build';
import { DEFAULT_WORK_FILE, LINE_ART_WORK_FILE, readWorkFile } from '../drawings/embed';
import { readProbeRows, type ProbeRow } from './probe-data';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const PROBE_FILE = join(repoRoot, 'models/image-type/photo-probe.json');
/** Gradient descent: steps and step size on standardised features. */
const TRAINING = { iterations: 400, rate: 0.5 } as const;
const D = CLASSIFIER_FEATURES;

interface Example {
  features: Uint8Array;
  photo: boolean;
}

const featuresOf = (b64: string): Uint8Array => new Uint8Array(Buffer.from(b64, 'base64'));

/** Trains the probe; the standardisation is folded into the returned weights. */
export function trainProbe(examples: readonly Example[], lambda: number): { bias: number; weights: Float64Array } {
  const n = examples.length;
  const mean = new Float64Array(D);
  const sd = new Float64Array(D);
  for (const e of examples) for (let j = 0; j < D; j++) mean[j]! += e.features[j]! / n;
  for (const e of examples) for (let j = 0; j < D; j++) sd[j]! += (e.features[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < D; j++) sd[j] = Math.sqrt(sd[j]!) + 1e-3;
  const z = new Float32Array(n * D);
  examples.forEach((e, i) => {
    for (let j = 0; j < D; j++) z[i * D + j] = (e.features[j]! - mean[j]!) / sd[j]!;
  });
  const photos = examples.filter((e) => e.photo).length;
  // Class-balanced: photos and drawings weigh the same in total.
  const weightOf = (photo: boolean): number => n / (2 * (photo ? photos : n - photos));
  const w = new Float64Array(D);
  let b = 0;
  const grad = new Float64Array(D);
  for (let it = 0; it < TRAINING.iterations; it++) {
    grad.fill(0);
    let gb = 0;
    for (let i = 0; i < n; i++) {
      let s = b;
      const row = i * D;
      for (let j = 0; j < D; j++) s += z[row + j]! * w[j]!;
      const e = examples[i]!;
      const g = (1 / (1 + Math.exp(-s)) - (e.photo ? 1 : 0)) * weightOf(e.photo);
      gb += g;
      for (let j = 0; j < D; j++) grad[j]! += g * z[row + j]!;
    }
    for (let j = 0; j < D; j++) w[j]! -= TRAINING.rate * (grad[j]! / n + lambda * w[j]!);
    b -= (TRAINING.rate * gb) / n;
  }
  const weights = new Float64Array(D);
  let bias = b;
  for (let j = 0; j < D; j++) {
    weights[j] = w[j]! / sd[j]!;
    bias -= (w[j]! * mean[j]!) / sd[j]!;
  }
  return { bias, weights };
}

const pct = (a: number, b: number): string => `${((100 * a) / Math.max(1, b)).toFixed(1)} % (${a}/${b})`;

/** clipArtType from a score (IMAGE_TYPE_RULES.clip). */
function typeOf(score: number): number {
  const c = IMAGE_TYPE_RULES.clip;
  return score >= c.good ? 3 : score >= c.normal ? 2 : score >= c.ambiguous ? 1 : 0;
}

function report(rows: readonly ProbeRow[], probe: PhotoProbe): void {
  const groups = new Map<string, ProbeRow[]>();
  for (const r of rows) {
    const key = `${r.role} ${r.set} ${r.variant} (${r.label})`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  console.log('\nper part: P(photo) ≥ 0.5 | clip art ≥ 2 without the probe → with it (IMAGE_TYPE_RULES.photoProbe)');
  for (const [key, part] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    const p = part.map((r) => photoProbability(featuresOf(r.features), probe));
    const before = part.filter((r) => typeOf(clipArtScore(r.evidence)) >= 2).length;
    const after = part.filter((r, i) => typeOf(clipArtScore({ ...r.evidence, photoProb: p[i] })) >= 2).length;
    console.log(
      `  ${key.padEnd(52)} ${pct(p.filter((x) => x >= 0.5).length, part.length).padEnd(20)} | ${pct(before, part.length)} → ${pct(after, part.length)}`,
    );
  }
}

/** Veto and drawing ramps tried on the calibration rows (IMAGE_TYPE_RULES.photoProbe is one of them). */
const GRID = {
  veto: [
    [0.5, 0.9],
    [0.6, 0.9],
    [0.7, 0.95],
    [0.8, 0.98],
  ],
  drawing: [
    [0, 0],
    [0.05, 0.2],
    [0.1, 0.3],
  ],
} as const;

/** Clip art ≥ 2 per calibration part for each setting of the grid. */
function grid(rows: readonly ProbeRow[], probe: PhotoProbe): void {
  const calibration = rows.filter((r) => r.role === 'calibrate');
  const parts = [...new Set(calibration.map((r) => `${r.set} ${r.variant} (${r.label})`))].sort();
  const p = calibration.map((r) => photoProbability(featuresOf(r.features), probe));
  console.log(`\ncalibration parts, clip art ≥ 2 per setting (veto ramp; drawing ramp, 0–0: the cut-out discount always applies):`);
  console.log(`  ${''.padEnd(22)} ${parts.map((x) => x.padStart(30)).join('')}`);
  for (const veto of GRID.veto)
    for (const drawing of GRID.drawing) {
      const cells = parts.map((part) => {
        const idx = calibration.map((r, i) => [r, i] as const).filter(([r]) => `${r.set} ${r.variant} (${r.label})` === part);
        const rules = { photoProbe: { veto, drawing } };
        const clip = idx.filter(([r, i]) => typeOf(clipArtScore({ ...r.evidence, photoProb: p[i] }, rules)) >= 2).length;
        return `${clip} / ${idx.length}`.padStart(30);
      });
      console.log(`  ${`${veto.join('–')}; ${drawing.join('–')}`.padEnd(22)} ${cells.join('')}`);
    }
}

function main(): void {
  const lambda = Number(arg('--lambda') ?? 0.1);
  const rows = readProbeRows();
  if (!rows.length) throw new Error('no probe work file: run npx tsx tooling/image-type/probe-data.ts first');
  const drawings = [...readWorkFile(DEFAULT_WORK_FILE), ...readWorkFile(LINE_ART_WORK_FILE)].filter((d) => d.split === 'reference');
  if (!drawings.length) throw new Error('no drawing work files: run npx tsx tooling/drawings/embed.ts (and --style line) first');
  const examples: Example[] = [
    ...rows.filter((r) => r.role === 'train').map((r) => ({ features: featuresOf(r.features), photo: r.label === 'photo' })),
    ...drawings.map((d) => ({ features: featuresOf(d.features), photo: false })),
  ];
  const photos = examples.filter((e) => e.photo).length;
  console.log(`training: ${examples.length} images, ${photos} photos, ${examples.length - photos} drawings; λ ${lambda}`);
  const { bias, weights } = trainProbe(examples, lambda);
  const probe: PhotoProbe = {
    source:
      'tooling/image-type/photo-probe.ts: logistic regression on the Coral MobileNetV2 pooled features; photos: Tux Paint stamps ' +
      '(tuxpaint-stamps-default, GPL-2+) judged photographs by the lossless cut-out test, as PNG, as JPEG, small on a white canvas and on ' +
      'plain backdrops (test/eval/backdrops.ts), and the people crops of test/fixtures/people; drawings: Open Clip Art reference drawings ' +
      '(openclipart-svg, public domain) as PNG, line art and JPEG, and the drawn Tux Paint stamps in the same four forms',
    features: D,
    bias: Number(bias.toPrecision(6)),
    weights: [...weights].map((x) => Number(x.toPrecision(5))),
  };
  const trainP = examples.map((e) => photoProbability(e.features, probe));
  const right = trainP.filter((p, i) => p >= 0.5 === examples[i]!.photo).length;
  console.log(`training accuracy ${pct(right, examples.length)}`);
  report(rows, probe);
  grid(rows, probe);
  if (!process.argv.includes('--dry')) {
    writeFileSync(PROBE_FILE, `${JSON.stringify(probe)}\n`);
    console.log(`\nwrote ${PROBE_FILE}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
