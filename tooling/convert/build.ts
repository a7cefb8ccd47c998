/**
 * `npm run models:build`: converts every model in specs.ts to models/<id>.onnx and writes
 * models/manifest.json, plus the graphs written from weights alone (`writtenModels`: dlib's face
 * descriptor). Deterministic: same sources -> byte-identical files and hashes.
 *   --only a,b   convert only these ids (merged into the existing manifest)
 *   --out DIR    write somewhere else (determinism checks)
 * Then the models of quantize/int8-specs.ts among those built are re-quantised to int8
 * (quantize/build.ts, also `npm run models:quantize`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertGraph } from './convert';
import { freeSpatialDims } from './free-spatial';
import type { Preprocess } from '../../src-main/inference/manifest';
import { buildSpecs, type BuildSpec } from './specs';
import { loadArtifacts, packageVersion } from './tfjs-source';
import { buildDlibDescriptor, DLIB_DESCRIPTOR_ID } from './dlib/build';

export const modelsDir = fileURLToPath(new URL('../../models/', import.meta.url));

export interface ManifestEntry {
  id: string;
  task: string;
  file: string;
  sha256: string;
  bytes: number;
  source: { package: string; version: string; path: string };
  license: string;
  inputs: {
    name: string;
    shape: number[];
    dtype: 'float32' | 'uint8' | 'int8';
    layout: string;
    range: [number, number];
    normalization: string;
    preprocess?: Preprocess;
  }[];
  outputs: { name: string; shape: number[]; dtype?: string; meaning: string }[];
  labels?: string;
  /** Quantized models (tooling/convert/tflite/quantized.ts): integer precision and scales. */
  precision?: 'uint8' | 'int8';
  quantization?: object;
  /** int8 rewrites of a float model (tooling/convert/quantize): the float file and the calibration. */
  quantizedFrom?: { file: string; sha256: string; bytes: number; method: string; calibration: string };
}

export async function buildModel(spec: BuildSpec, outDir: string): Promise<ManifestEntry> {
  const art = loadArtifacts(spec.source);
  const version = packageVersion(spec.source.package);
  const { graph, outputShapes } = await convertGraph(art, {
    inputName: spec.input.name,
    inputShape: spec.input.shape,
    outputs: spec.outputs,
    dynamicBatch: spec.dynamicBatch === true,
  });
  const serialized = graph.serialize({
    // Provenance text inside the shipped file: the converter's path when the models were first
    // built, kept so that rebuilds stay byte-identical to the manifest's sha256.
    docString: `${spec.id}: converted from ${spec.source.package}@${version} ${spec.source.path} by models/convert`,
    props: { id: spec.id, source: `${spec.source.package}@${version}/${spec.source.path}`, license: spec.license },
  });
  // A trimmed letterbox needs free spatial dims (free-spatial.ts).
  const trim = spec.input.preprocess?.trim;
  const bytes = trim ? await freeSpatialDims(serialized, trim) : serialized;
  const file = `${spec.id}.onnx`;
  writeFileSync(join(outDir, file), bytes);
  return manifestEntry(spec, { file, bytes, version, sourcePath: spec.source.path, outputShapes });
}

/** What a manifest entry is made from besides the spec: the written file and what was measured. */
export interface BuiltFile {
  file: string;
  bytes: Uint8Array;
  version: string;
  sourcePath: string;
  outputShapes: number[][];
}

/** The manifest entry of a converted model (shared with the TFLite build). */
export function manifestEntry(
  spec: Pick<BuildSpec, 'id' | 'task' | 'license' | 'input' | 'outputs' | 'labels' | 'dynamicBatch'> & { source: { package: string } },
  built: BuiltFile,
): ManifestEntry {
  // A dynamic batch is -1 in the manifest (the graph's 'N'); everything else is static.
  const shape = (s: number[]): number[] => (spec.dynamicBatch ? [-1, ...s.slice(1)] : s);
  return {
    id: spec.id,
    task: spec.task,
    file: built.file,
    sha256: createHash('sha256').update(built.bytes).digest('hex'),
    bytes: built.bytes.byteLength,
    source: { package: spec.source.package, version: built.version, path: built.sourcePath },
    license: spec.license,
    inputs: [
      {
        name: spec.input.name,
        shape: shape(spec.input.shape),
        dtype: 'float32',
        layout: spec.input.layout,
        range: spec.input.range,
        normalization: spec.input.normalization,
        ...(spec.input.preprocess ? { preprocess: spec.input.preprocess } : {}),
      },
    ],
    outputs: spec.outputs.map((o, i) => ({ name: o.name, shape: shape(built.outputShapes[i]!), meaning: o.meaning })),
    ...(spec.labels ? { labels: spec.labels } : {}),
  };
}

/** The value after a command-line flag. */
export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Models written layer by layer from a weights package (no TF.js graph to convert), in manifest order after specs.ts. */
const writtenModels: { id: string; build: (outDir: string) => ManifestEntry | Promise<ManifestEntry> }[] = [
  { id: DLIB_DESCRIPTOR_ID, build: buildDlibDescriptor },
];

async function main(): Promise<void> {
  const outDir = resolve(arg('--out') ?? modelsDir);
  mkdirSync(outDir, { recursive: true });
  const only = arg('--only')?.split(',');
  const all = [...buildSpecs.map((spec) => ({ id: spec.id, build: (dir: string) => buildModel(spec, dir) })), ...writtenModels];
  const specs = only ? all.filter((s) => only.includes(s.id)) : all;
  if (only && specs.length !== only.length) throw new Error(`unknown id in --only ${only.join(',')}`);
  const manifestPath = join(outDir, 'manifest.json');
  const previous: ManifestEntry[] = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as { models: ManifestEntry[] }).models
    : [];
  const entries = new Map(previous.filter((e) => only || !all.some((s) => s.id === e.id)).map((e) => [e.id, e]));
  for (const spec of specs) {
    const t0 = performance.now();
    const entry = await spec.build(outDir);
    entries.set(spec.id, entry);
    process.stderr.write(
      `${spec.id}: ${(entry.bytes / 1e6).toFixed(2)} MB ${entry.sha256.slice(0, 12)} (${Math.round(performance.now() - t0)} ms)\n`,
    );
  }
  // Manifest order follows specs.ts so rebuilds are byte-identical; entries written by the TFLite
  // build (tooling/convert/tflite) stay after these, in their order.
  const order = all.map((s) => s.id);
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const models = [...entries.values()]
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e.id) - rank(b.e.id) || a.i - b.i)
    .map((x) => x.e);
  writeFileSync(manifestPath, `${JSON.stringify({ version: 1, models }, null, 2)}\n`);
  // The float models that ship as int8 are re-quantised from the files just written.
  const { int8Specs } = await import('./quantize/int8-specs');
  const requantise = int8Specs.filter((s) => specs.some((b) => b.id === s.id)).map((s) => s.id);
  if (requantise.length) await (await import('./quantize/build')).quantizeModels(outDir, requantise);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
