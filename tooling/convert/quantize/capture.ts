/**
 * Captures the real inputs each model receives while the product analyses images: wraps
 * onnxruntime's session factory, recognises each model by the sha256 of its bytes (the manifest
 * lists them) and records up to `perModel` feeds per model. Calibration then sees exactly the
 * preprocessing, crops and face alignments the product produces.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { Feeds } from './calibrate';

export class FeedRecorder {
  readonly feeds = new Map<string, Feeds[]>();
  private readonly idBySha = new Map<string, string>();
  active = true;

  constructor(
    modelsDir: string,
    readonly perModel: number,
  ) {
    const manifest = JSON.parse(readFileSync(join(modelsDir, 'manifest.json'), 'utf8')) as { models: { id: string; sha256: string }[] };
    for (const m of manifest.models) this.idBySha.set(m.sha256, m.id);
  }

  install(): void {
    const original = ort.InferenceSession.create.bind(ort.InferenceSession) as (...a: unknown[]) => Promise<ort.InferenceSession>;
    (ort.InferenceSession as unknown as { create: unknown }).create = async (...args: unknown[]) => {
      const session = await original(...args);
      const bytes = args[0];
      if (!(bytes instanceof Uint8Array)) return session;
      const id = this.idBySha.get(createHash('sha256').update(bytes).digest('hex'));
      if (!id) return session;
      const run = session.run.bind(session) as (
        feeds: Record<string, ort.Tensor>,
        ...rest: unknown[]
      ) => Promise<ort.InferenceSession.ReturnType>;
      (session as unknown as { run: unknown }).run = (feeds: Record<string, ort.Tensor>, ...rest: unknown[]) => {
        this.record(id, feeds);
        return run(feeds, ...rest);
      };
      return session;
    };
  }

  private record(id: string, feeds: Record<string, ort.Tensor>): void {
    if (!this.active) return;
    const list = this.feeds.get(id) ?? this.feeds.set(id, []).get(id)!;
    if (list.length >= this.perModel) return;
    // The engine's warm-up runs all-zero inputs: not an input any image produces.
    if (Object.values(feeds).every((t) => (t.data as Float32Array).every((v) => v === 0))) return;
    list.push(
      Object.fromEntries(
        Object.entries(feeds).map(([k, t]) => [k, { dtype: t.type, dims: [...t.dims], data: (t.data as Float32Array).slice() }]),
      ),
    );
  }
}
