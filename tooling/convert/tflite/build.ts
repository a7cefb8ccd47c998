/**
 * `npm run models:build:tflite`: converts the shipped quantized TFLite models of
 * ./quantized-specs.ts (models/sources/coral) to <out>/<id>.onnx and merges their entries into
 * <out>/manifest.json, after the TF.js models. Deterministic: same source bytes -> byte-identical
 * files. (The float candidate oidv4-ssd is built by tooling/experiments/oidv4-ssd/build.ts.)
 *   --only id,id   convert only these ids
 *   --out DIR      write somewhere else (default models/)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg, type ManifestEntry } from '../build';
import { buildQuantizedModel } from './quantized-build';
import { quantizedSpecs } from './quantized-specs';

export const modelsDir = fileURLToPath(new URL('../../../models/', import.meta.url));

function main(): void {
  const outDir = resolve(arg('--out') ?? modelsDir);
  mkdirSync(outDir, { recursive: true });
  const only = arg('--only')?.split(',');
  const known = quantizedSpecs.map((s) => s.id);
  if (only?.some((id) => !known.includes(id))) throw new Error(`unknown id in --only ${only.join(',')}`);
  const wanted = (id: string) => !only || only.includes(id);
  const manifestPath = join(outDir, 'manifest.json');
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
  // TFLite entries after the others, in spec order (byte-identical manifest on rebuild).
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
