/**
 * Lazy, cached model sessions by manifest id (Immich's InferenceModel): the first `session(id)`
 * reads the file, checks its sha256 against the manifest, opens it and runs one warm-up pass;
 * concurrent callers share that one load. A failed load is not cached, so a retry can succeed.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { AppError, silentLogger, type Logger } from '../core';
import type { Manifest, ModelSpec } from './manifest';
import type { ModelRunner } from './runner';
import { openSession, type Session, type TensorMap } from './session';
import { dynamicBatch } from './preprocess';
import { atBatch } from './tensor';

/** Engine settings; everything but `modelsDir` has a default. */
export interface EngineOptions {
  /** Folder holding manifest.json and the .onnx files. */
  modelsDir: string;
  /** Threads per operator; default: number of cores. */
  intraOpNumThreads?: number;
  /**
   * At most this many threads per operator for particular models, by manifest id (caps
   * `intraOpNumThreads`): small models gain nothing from a second thread but pay its hand-offs.
   */
  maxModelThreads?: Readonly<Record<string, number>>;
  /** Run one zero-input inference after loading (first real run is then not slow); default true. */
  warmUp?: boolean;
  logger?: Logger;
}

/** Zero feeds matching a spec's declared inputs, batch 1 (used for warm-up). */
export function zeroFeeds(spec: ModelSpec): TensorMap {
  const feeds: TensorMap = {};
  for (const i of spec.inputs) {
    const dims = atBatch(i.shape, 1);
    feeds[i.name] = { data: new Float32Array(dims.reduce((a, b) => a * b, 1)), dims };
  }
  return feeds;
}

/**
 * Model `id`'s file, checked against the manifest: `model-missing` when it cannot be read,
 * `model-failed` when its sha256 differs (corrupt or outdated).
 */
export async function readVerifiedModel(modelsDir: string, id: string, spec: ModelSpec): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(join(modelsDir, spec.file));
  } catch (err) {
    throw new AppError('model-missing', `Model file for "${id}" not found: ${spec.file}`, {
      cause: err,
      details: { model: id, file: spec.file },
    });
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== spec.sha256) {
    throw new AppError('model-failed', `Model file for "${id}" is corrupt or outdated (sha256 mismatch): ${spec.file}`, {
      details: { model: id, file: spec.file, expected: spec.sha256, actual: sha256 },
    });
  }
  return bytes;
}

/**
 * Checks every model file of the manifest up front (the engine checks each lazily, at its first
 * use): throws for the first one missing or corrupt, in manifest order.
 */
export async function verifyModelFiles(manifest: Manifest, modelsDir: string): Promise<void> {
  for (const [id, spec] of manifest.models) await readVerifiedModel(modelsDir, id, spec);
}

export class InferenceEngine implements ModelRunner {
  private readonly loading = new Map<string, Promise<Session>>();
  private readonly threads: number;

  constructor(
    readonly manifest: Manifest,
    private readonly opts: EngineOptions,
  ) {
    this.threads = Math.max(1, Math.floor(opts.intraOpNumThreads ?? availableParallelism()));
  }

  /** The manifest entry for `id`; `model-missing` if the manifest has no such model. */
  spec(id: string): ModelSpec {
    const spec = this.manifest.models.get(id);
    if (!spec) throw new AppError('model-missing', `No model "${id}" in the manifest`, { details: { model: id } });
    return spec;
  }

  /** The open session for `id`, loading it on first use. */
  session(id: string): Promise<Session> {
    const hit = this.loading.get(id);
    if (hit) return hit;
    const p = this.load(id);
    this.loading.set(id, p);
    p.catch(() => this.loading.delete(id));
    return p;
  }

  /** Intra-op threads model `id` is (or will be) opened with. */
  threadsFor(id: string): number {
    const cap = this.opts.maxModelThreads?.[id];
    return cap === undefined ? this.threads : Math.max(1, Math.min(this.threads, Math.floor(cap)));
  }

  /**
   * Whether model `id` is opened with ORT's memory pattern: not for the dynamic-batch (per-face)
   * models, which see a new batch size with nearly every image (SessionOptions.memoryPattern).
   */
  memoryPatternFor(id: string): boolean {
    const spec = this.manifest.models.get(id);
    return !spec || !dynamicBatch(spec);
  }

  /** Runs model `id` on named feeds. */
  async run(id: string, feeds: TensorMap, signal?: AbortSignal): Promise<TensorMap> {
    const s = await this.session(id);
    return s.run(feeds, signal);
  }

  /** Closes one model's session (it reloads on next use). */
  async unload(id: string): Promise<void> {
    const p = this.loading.get(id);
    this.loading.delete(id);
    if (p) await p.then((s) => s.dispose()).catch(() => undefined);
  }

  /** Closes every session. */
  async dispose(): Promise<void> {
    await Promise.all([...this.loading.keys()].map((id) => this.unload(id)));
  }

  private async load(id: string): Promise<Session> {
    const spec = this.spec(id);
    const bytes = await readVerifiedModel(this.opts.modelsDir, id, spec);
    const t0 = performance.now();
    const threads = this.threadsFor(id);
    const memoryPattern = this.memoryPatternFor(id);
    const session = await openSession(bytes, { modelId: id, inputs: spec.inputs }, { intraOpNumThreads: threads, memoryPattern });
    if (this.opts.warmUp !== false) {
      try {
        await session.run(zeroFeeds(spec));
      } catch (err) {
        await session.dispose();
        throw err;
      }
    }
    (this.opts.logger ?? silentLogger).debug('model loaded', { model: id, threads, memoryPattern, ms: Math.round(performance.now() - t0) });
    return session;
  }
}
