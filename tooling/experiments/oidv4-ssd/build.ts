/**
 * The unshipped float TFLite candidate (oidv4-ssd, from @mediapipe/objectron) converted to ONNX:
 *   npx tsx tooling/experiments/oidv4-ssd/build.ts [--out DIR]   (default: a temporary folder)
 * Writes <id>.onnx and its label file and prints the manifest entry it would have; never touches
 * models/. Measured and not shipped (docs/models.md, "Object detector candidates"). Deterministic:
 * same source bytes -> byte-identical files.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, manifestEntry, type ManifestEntry } from '../../convert/build';
import { convertTflite, type TfliteConverted } from '../../convert/tflite/convert';
import { packageVersion } from '../../convert/tfjs-source';
import { loadTflite, readPackedAsset } from './source';
import { tfliteSpecs, type TfliteBuildSpec } from './specs';

/** The source path recorded in the manifest: the packed asset inside its data file. */
export const sourcePath = (spec: TfliteBuildSpec): string => `${spec.source.data}#${spec.source.asset}`;

export function convertSpec(spec: TfliteBuildSpec): { bytes: Uint8Array; converted: TfliteConverted; version: string } {
  const version = packageVersion(spec.source.package);
  const converted = convertTflite(loadTflite(spec.source), { inputName: spec.input.name, outputs: spec.outputs });
  if (converted.inputShape.join() !== spec.input.shape.join())
    throw new Error(`${spec.id}: model input ${converted.inputShape} != spec ${spec.input.shape}`);
  const bytes = converted.graph.serialize({
    // Provenance text inside the model file, kept as first built so the bytes stay reproducible.
    docString: `${spec.id}: converted from ${spec.source.package}@${version} ${sourcePath(spec)} by models/convert/tflite`,
    props: { id: spec.id, source: `${spec.source.package}@${version}/${sourcePath(spec)}`, license: spec.license },
  });
  return { bytes, converted, version };
}

/** The label map of the packed model (one label per line; index 0 is the background "???"). */
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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(arg('--out') ?? mkdtempSync(join(tmpdir(), 'picscan-candidates-')));
  mkdirSync(outDir, { recursive: true });
  for (const spec of tfliteSpecs) process.stdout.write(`${JSON.stringify(buildTfliteModel(spec, outDir), null, 2)}\n`);
  process.stderr.write(`written to ${outDir}\n`);
}
