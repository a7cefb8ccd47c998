/**
 * `npm run models:build:tflite`: converts the TFLite models to <out>/<id>.onnx (and their label
 * files): the shipped quantized models of ./quantized-specs.ts (merged into <out>/manifest.json,
 * after the TF.js models) and the float candidates of ./specs.ts. Deterministic: same source
 * bytes -> byte-identical files.
 *   --only id,id   convert only these ids
 *   --out DIR      write somewhere else (default models/)
 *   --manifest     also merge the candidates' entries into the manifest. Off by default:
 *                  oidv4-ssd is a measured candidate, not shipped (docs/models.md).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, manifestEntry, type ManifestEntry } from '../build';
import { packageVersion } from '../tfjs-source';
import { convertTflite, type TfliteConverted } from './convert';
import { buildQuantizedModel } from './quantized-build';
import { quantizedSpecs } from './quantized-specs';
import { loadTflite, readPackedAsset } from './source';
import { tfliteSpecs, type TfliteBuildSpec } from './specs';

export const modelsDir = fileURLToPath(new URL('../..', import.meta.url));

/** The source path recorded in the manifest: the packed asset inside its data file. */
export const sourcePath = (spec: TfliteBuildSpec): string => `${spec.source.data}#${spec.source.asset}`;

export function convertSpec(spec: TfliteBuildSpec): { bytes: Uint8Array; converted: TfliteConverted; version: string } {
  const version = packageVersion(spec.source.package);
  const converted = convertTflite(loadTflite(spec.source), { inputName: spec.input.name, outputs: spec.outputs });
  if (converted.inputShape.join() !== spec.input.shape.join())
    throw new Error(`${spec.id}: model input ${converted.inputShape} != spec ${spec.input.shape}`);
  const bytes = converted.graph.serialize({
    docString: `${spec.id}: converted from ${spec.source.package}@${version} ${sourcePath(spec)} by models/convert/tflite`,
    props: { id: spec.id, source: `${spec.source.package}@${version}/${sourcePath(spec)}`, license: spec.license },
  });
  return { bytes, converted, version };
}

/** The label map shipped next to the model (one label per line; index 0 is the background "???"). */
export function labelsOf(spec: TfliteBuildSpec): string[] {
  if (!spec.labelAsset) return [];
  const text = Buffer.from(readPackedAsset(spec.source.package, spec.source.data, spec.source.loader, spec.labelAsset)).toString('utf8');
  return text.split('\n').filter((l) => l.length > 0);
}

export function buildTfliteModel(spec: TfliteBuildSpec, outDir: string): ManifestEntry {
  const { bytes, converted, version } = convertSpec(spec);
  const file = `${spec.id}.onnx`;
  writeFileSync(join(outDir, file), bytes);
  if (spec.labels && spec.labelAsset) {
    const labels = labelsOf(spec);
    const classes = converted.outputShapes.map((s) => s.at(-1));
    if (!classes.includes(labels.length)) throw new Error(`${spec.id}: ${labels.length} labels, outputs ${classes.join(',')}`);
    mkdirSync(dirname(join(outDir, spec.labels)), { recursive: true });
    writeFileSync(join(outDir, spec.labels), `[${labels.map((l) => JSON.stringify(l)).join(', ')}]\n`);
  }
  return manifestEntry(spec, { file, bytes, version, sourcePath: sourcePath(spec), outputShapes: converted.outputShapes });
}

function main(): void {
  const outDir = resolve(arg('--out') ?? modelsDir);
  mkdirSync(outDir, { recursive: true });
  const only = arg('--only')?.split(',');
  const known = [...quantizedSpecs.map((s) => s.id), ...tfliteSpecs.map((s) => s.id)];
  if (only?.some((id) => !known.includes(id))) throw new Error(`unknown id in --only ${only.join(',')}`);
  const wanted = (id: string) => !only || only.includes(id);
  const manifestPath = join(outDir, 'manifest.json');
  const withCandidates = process.argv.includes('--manifest');
  const models: ManifestEntry[] = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as { models: ManifestEntry[] }).models
    : [];
  const merge = (entry: ManifestEntry, t0: number) => {
    const at = models.findIndex((e) => e.id === entry.id);
    if (at >= 0) models[at] = entry;
    else models.push(entry);
    report(entry, t0);
  };
  for (const spec of quantizedSpecs.filter((s) => wanted(s.id))) {
    const t0 = performance.now();
    merge(buildQuantizedModel(spec, outDir), t0);
  }
  for (const spec of tfliteSpecs.filter((s) => wanted(s.id))) {
    const t0 = performance.now();
    const entry = buildTfliteModel(spec, outDir);
    if (withCandidates) merge(entry, t0);
    else report(entry, t0);
  }
  // TFLite entries after the others, shipped then candidates, in spec order (byte-identical manifest on rebuild).
  const order = known;
  const rank = (e: ManifestEntry) => (order.includes(e.id) ? 1 + order.indexOf(e.id) : 0);
  const sorted = models.map((e, i) => ({ e, i })).sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i);
  writeFileSync(manifestPath, `${JSON.stringify({ version: 1, models: sorted.map((x) => x.e) }, null, 2)}\n`);
}

function report(entry: ManifestEntry, t0: number): void {
  process.stderr.write(
    `${entry.id}: ${(entry.bytes / 1e6).toFixed(2)} MB ${entry.sha256.slice(0, 12)} (${Math.round(performance.now() - t0)} ms)\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err: unknown) {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  }
}
