/**
 * `npm run models:build:tflite`: converts the TFLite models in ./specs.ts to <out>/<id>.onnx (and
 * their label files). Deterministic: same package bytes -> byte-identical files.
 *   --only id,id   convert only these ids
 *   --out DIR      write somewhere else (default models/)
 *   --manifest     also merge the entries into <out>/manifest.json (after the TF.js models, in
 *                  spec order). Off by default: oidv4-ssd is a measured candidate, not shipped
 *                  (docs/models.md), and models/convert/build.ts keeps only its own ids.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, manifestEntry, type ManifestEntry } from '../build';
import { packageVersion } from '../tfjs-source';
import { convertTflite, type TfliteConverted } from './convert';
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
  const specs = only ? tfliteSpecs.filter((s) => only.includes(s.id)) : tfliteSpecs;
  if (only && specs.length !== only.length) throw new Error(`unknown id in --only ${only.join(',')}`);
  const manifestPath = join(outDir, 'manifest.json');
  const withManifest = process.argv.includes('--manifest');
  const models: ManifestEntry[] =
    withManifest && existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as { models: ManifestEntry[] }).models : [];
  for (const spec of specs) {
    const t0 = performance.now();
    const entry = buildTfliteModel(spec, outDir);
    const at = models.findIndex((e) => e.id === spec.id);
    if (at >= 0) models[at] = entry;
    else models.push(entry);
    process.stderr.write(
      `${spec.id}: ${(entry.bytes / 1e6).toFixed(2)} MB ${entry.sha256.slice(0, 12)} (${Math.round(performance.now() - t0)} ms)\n`,
    );
  }
  if (!withManifest) return;
  // TFLite entries after the others, in spec order (byte-identical manifest on rebuild).
  const order = tfliteSpecs.map((s) => s.id);
  const rank = (e: ManifestEntry) => (order.includes(e.id) ? 1 + order.indexOf(e.id) : 0);
  const sorted = models.map((e, i) => ({ e, i })).sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i);
  writeFileSync(manifestPath, `${JSON.stringify({ version: 1, models: sorted.map((x) => x.e) }, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err: unknown) {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  }
}
