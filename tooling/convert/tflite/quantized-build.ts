/**
 * Builds the quantized models of quantized-specs.ts from models/sources/coral: the .onnx file, its
 * label file and its manifest entry (precision, input/output quantization, `preprocess`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestEntry, type ManifestEntry } from '../build';
import { convertQuantizedTflite, type QuantizedConverted, type QuantizedMode } from './quantized';
import type { QuantizedBuildSpec } from './quantized-specs';

export const coralSourcesDir = fileURLToPath(new URL('../../../models/sources/coral/', import.meta.url));

/** The source .tflite bytes, checked against the sha256 recorded in the spec. */
export function loadCoral(spec: QuantizedBuildSpec): Uint8Array {
  const bytes = new Uint8Array(readFileSync(join(coralSourcesDir, spec.source.file)));
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (sha !== spec.source.sha256) throw new Error(`${spec.source.file}: sha256 ${sha}, expected ${spec.source.sha256}`);
  return bytes;
}

/** The converted graph; `withTaps` adds the spec's parity taps as extra outputs (test-only variant). */
export function convertQuantizedSpec(
  spec: QuantizedBuildSpec,
  mode: QuantizedMode = 'qlinear',
  withTaps = false,
): { bytes: Uint8Array; converted: QuantizedConverted } {
  const outputs = withTaps ? [...spec.outputs, ...(spec.parityTaps ?? [])] : spec.outputs;
  const freeSpatial = spec.runSize !== undefined;
  const converted = convertQuantizedTflite(loadCoral(spec), { inputName: spec.input.name, outputs, mode, freeSpatial });
  if (converted.inputShape.join() !== spec.input.shape.join())
    throw new Error(`${spec.id}: model input ${converted.inputShape} != spec ${spec.input.shape}`);
  const source = `${spec.source.repo}@${spec.source.commit}/${spec.source.file}`;
  const bytes = converted.graph.serialize({
    // Provenance text inside the shipped file: the converter's path when the models were first
    // built, kept so that rebuilds stay byte-identical to the manifest's sha256.
    docString: `${spec.id}: converted from ${source} by models/convert/tflite (${mode})`,
    props: { id: spec.id, source, license: spec.license },
  });
  return { bytes, converted };
}

/** The label list: synonym lists (string[][]) or plain names (string[]). */
export function labelsOf(spec: QuantizedBuildSpec): string[][] | string[] {
  const lines = readFileSync(join(coralSourcesDir, spec.labels.source), 'utf8').split('\n');
  if (spec.labels.format === 'synonyms') return lines.filter((l) => l.length > 0).map((l) => l.split(', '));
  const end = lines.indexOf('');
  return lines.slice(0, end < 0 ? lines.length : end);
}

/** One JSON line per label, so diffs of the label files stay readable. */
const labelsJson = (labels: string[][] | string[]): string => `[\n${labels.map((l) => `  ${JSON.stringify(l)}`).join(',\n')}\n]\n`;

export function buildQuantizedModel(spec: QuantizedBuildSpec, outDir: string): ManifestEntry {
  const { bytes, converted } = convertQuantizedSpec(spec);
  const file = `${spec.id}.onnx`;
  writeFileSync(join(outDir, file), bytes);
  const labels = labelsOf(spec);
  if (labels.length !== spec.labels.count) throw new Error(`${spec.id}: ${labels.length} labels, expected ${spec.labels.count}`);
  mkdirSync(dirname(join(outDir, spec.labels.file)), { recursive: true });
  writeFileSync(join(outDir, spec.labels.file), labelsJson(labels));

  const run = runInput(spec);
  const base = manifestEntry(
    { ...spec, input: run.input, labels: spec.labels.file, source: { package: `github.com/${spec.source.repo}` } },
    { file, bytes, version: spec.source.commit, sourcePath: spec.source.file, outputShapes: converted.outputShapes.map(run.shape) },
  );
  const inQ = converted.inputQuantization;
  const outputs: Record<string, { scale: number; zeroPoint: number }> = {};
  spec.outputs.forEach((o, i) => {
    const q = converted.outputQuantization[i];
    if (q) outputs[o.name] = { scale: q.scale, zeroPoint: q.zeroPoint };
  });
  return {
    ...base,
    inputs: base.inputs.map((i) => ({ ...i, dtype: inQ.dtype, preprocess: run.input.preprocess })),
    outputs: base.outputs.map((o, i) => ({
      name: o.name,
      shape: o.shape,
      dtype: dtypeName(converted.outputDtypes[i]!),
      meaning: o.meaning,
    })),
    precision: inQ.dtype,
    quantization: { inputs: { [spec.input.name]: { scale: inQ.scale, zeroPoint: inQ.zeroPoint } }, outputs },
  };
}

/**
 * The input as the app runs it and a map of source shapes to run shapes: for a `runSize` spec the
 * source size (in every spatial dim equal to it) becomes the run size; otherwise as converted.
 */
function runInput(spec: QuantizedBuildSpec): { input: QuantizedBuildSpec['input']; shape: (s: number[]) => number[] } {
  const size = spec.runSize;
  if (size === undefined) return { input: spec.input, shape: (s) => s };
  const [n, h, w, c] = spec.input.shape as [number, number, number, number];
  if (h !== w) throw new Error(`${spec.id}: runSize needs a square source input, got ${h}x${w}`);
  const input = {
    ...spec.input,
    shape: [n, size, size, c],
    normalization: spec.input.normalization.replaceAll(`${h}x${w}`, `${size}x${size}`),
    preprocess: { ...spec.input.preprocess, size: [size, size] as [number, number] },
  };
  return { input, shape: (s) => s.map((d, i) => (i > 0 && i < 3 && d === h ? size : d)) };
}

/** ONNX element type -> the manifest's dtype names (as onnxruntime-node's Tensor types). */
function dtypeName(t: string): string {
  return t === 'float' ? 'float32' : t;
}
