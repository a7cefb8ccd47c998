/**
 * `npm run models:quantize`: rewrites the float models of int8-specs.ts as static int8 QDQ graphs
 * (<id>-int8.onnx) and points their manifest entries at them; the entry keeps its id, so the
 * product runs the int8 file, and records the float file in `quantizedFrom`. Also the last step of
 * `npm run models:build` for the models it rebuilt.
 *   --only a,b   quantise only these ids
 *   --out DIR    models folder to read the float files and manifest from and write to (default models/)
 *
 * Steps per model: simplify (fold batch norm and bias into the convolutions, ReLU6 as Clip) →
 * plan (which tensors get Q/DQ) → calibrate (min/max of every planned tensor over the inputs the
 * product feeds the model while analysing the calibration images, captured through the float
 * models) → narrow filters (narrow-weights.ts: which convolutions get 7-bit weights) → QDQ (int8
 * per-channel weights, uint8 per-tensor activations). Deterministic: same float files, product code
 * and images → byte-identical files (ranges are rounded outwards to 4 significant digits and the
 * narrow search compares cosines at 4 decimals, so last-bit differences between machines do not
 * change them).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, modelsDir, type ManifestEntry } from '../build';
import { calibrate, roundOutward, type Feeds } from './calibrate';
import { CALIBRATION_TEXT, calibrationFiles } from './calibration-set';
import { FeedRecorder } from './capture';
import { floatEntry, floatManifestJson } from './float-source';
import { int8File, int8Specs } from './int8-specs';
import { decodeModel, encodeModel } from './onnx-model';
import { chooseNarrowWeights, NARROW_WEIGHT_BUDGET } from './narrow-weights';
import { applyQdq, planQuantisation } from './qdq';
import { simplify } from './simplify';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const INT8_METHOD =
  'static QDQ: int8 weights per output channel (symmetric), uint8 activations per tensor (min/max over the calibration inputs), int32 biases';

/** What the narrow-weight search chose, for the manifest and the log. */
const narrowText = (n: { narrow: Set<string>; convs: number; macShare: number }): string =>
  `7-bit weights (−63..63) in ${n.narrow.size} of ${n.convs} convolutions, ${(n.macShare * 100).toFixed(0)} % of their multiply-adds (worst calibration cosine within ${NARROW_WEIGHT_BUDGET} of all 8-bit)`;

/** Significant digits kept of each calibrated range bound (rounded away from zero's side of the range). */
const RANGE_DIGITS = 4;

type Manifest = { version: number; models: ManifestEntry[] };

/**
 * Runs the product's analyze on the calibration images with the float models and returns the
 * feeds each of `ids` received. Model files come from `dir`, or models/ for those not there.
 */
async function captureFeeds(manifest: Manifest, dir: string, ids: string[]): Promise<Map<string, Feeds[]>> {
  const { InferenceEngine, parseManifest } = await import('../../../src-main/inference');
  const { createImageLoader, intakeOptions } = await import('../../../src-main/intake');
  const { createAnalyzeService } = await import('../../../src-main/services/analyze.service');
  const floats = floatManifestJson(manifest);
  // The engine reads every file from one folder: link the float files there.
  const linked = mkdtempSync(join(tmpdir(), 'picscan-calib-'));
  for (const e of floats.models) {
    const src = existsSync(join(dir, e.file)) ? join(dir, e.file) : join(modelsDir, e.file);
    if (existsSync(src)) symlinkSync(src, join(linked, e.file));
  }
  // One thread: the float outputs that place the face crops are then the same run to run.
  const engine = new InferenceEngine(parseManifest(floats), { modelsDir: linked, intraOpNumThreads: 1 });
  const recorder = new FeedRecorder(engine, new Set(ids));
  const loader = createImageLoader(intakeOptions('desktop'));
  // Every face's attribute crops (the full level), as the int8 models were calibrated on.
  const service = createAnalyzeService({ runModel: recorder, faceRunner: recorder, loader, faceAttributes: 'full' });
  try {
    for (const file of calibrationFiles(repoRoot)) await service.analyze(file);
  } finally {
    await loader.close();
    await engine.dispose();
    rmSync(linked, { recursive: true, force: true });
  }
  return recorder.feeds;
}

/** The int8 graph of a float model, calibrated on `feeds`, and what its narrow weights are. */
export async function quantizeGraph(floatBytes: Uint8Array, feeds: Feeds[], label: string): Promise<{ bytes: Uint8Array; narrow: string }> {
  const m = decodeModel(floatBytes);
  simplify(m);
  const plan = planQuantisation(m);
  const ranges = roundOutward(await calibrate(m, plan.activations, feeds), RANGE_DIGITS);
  const choice = await chooseNarrowWeights(m, plan, ranges, feeds, floatBytes);
  applyQdq(m, plan, ranges, choice.narrow);
  const narrow = narrowText(choice);
  m.docString = `${label}: ${INT8_METHOD}; ${narrow}; by tooling/convert/quantize`;
  process.stderr.write(`  ${narrow}; worst cosines ${JSON.stringify(choice.full)} → ${JSON.stringify(choice.chosen)}\n`);
  return { bytes: encodeModel(m), narrow };
}

/** Quantises `ids` in `dir` (float files + manifest there) and updates `dir`/manifest.json. */
export async function quantizeModels(dir: string, ids: string[]): Promise<ManifestEntry[]> {
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  for (const id of ids) {
    if (!int8Specs.some((s) => s.id === id)) throw new Error(`${id} is not in quantize/int8-specs.ts`);
    if (!manifest.models.some((e) => e.id === id)) throw new Error(`${id} is not in ${manifestPath}`);
  }
  const t0 = performance.now();
  const feeds = await captureFeeds(manifest, dir, ids);
  process.stderr.write(`calibration inputs captured (${Math.round(performance.now() - t0)} ms)\n`);
  const written: ManifestEntry[] = [];
  for (const id of ids) {
    const t1 = performance.now();
    const at = manifest.models.findIndex((e) => e.id === id);
    const float = floatEntry(manifest.models[at]!);
    const floatBytes = readFileSync(join(dir, float.file));
    const floatSha = createHash('sha256').update(floatBytes).digest('hex');
    if (floatSha !== float.sha256) throw new Error(`${id}: ${float.file} does not match its manifest sha256 (rebuild it first)`);
    const list = feeds.get(id) ?? [];
    if (!list.length) throw new Error(`${id}: the calibration images produced no inputs for it`);
    const { bytes, narrow } = await quantizeGraph(floatBytes, list, `${id}: int8 of ${float.file} (sha256 ${float.sha256})`);
    const file = int8File(id);
    writeFileSync(join(dir, file), bytes);
    const entry: ManifestEntry = {
      ...float,
      file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.byteLength,
      precision: 'int8',
      quantizedFrom: {
        file: float.file,
        sha256: float.sha256,
        bytes: float.bytes,
        method: `${INT8_METHOD}; ${narrow}`,
        calibration: `${CALIBRATION_TEXT}: ${list.length} captured inputs`,
      },
    };
    manifest.models[at] = entry;
    written.push(entry);
    process.stderr.write(
      `${id}: ${(entry.bytes / 1e6).toFixed(2)} MB int8 ${entry.sha256.slice(0, 12)} from ${list.length} inputs (${Math.round(performance.now() - t1)} ms)\n`,
    );
  }
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(arg('--out') ?? modelsDir);
  const ids = arg('--only')?.split(',') ?? int8Specs.map((s) => s.id);
  quantizeModels(dir, ids).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
