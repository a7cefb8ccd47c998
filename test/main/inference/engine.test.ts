import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InferenceEngine, loadManifest, parseManifest, zeroFeeds, type Manifest } from '../../../src-main/inference';
import type { AppError } from '../../../src-main/core';
import { repoRoot } from '../../helpers/paths';

const modelsDir = join(repoRoot, 'models');
const manifest = loadManifest(join(modelsDir, 'manifest.json'));
const emotion = manifest.models.get('emotion')!;
let tmp: string | undefined;
afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

/** A models dir holding only emotion.onnx (the smallest model), with a manifest edit. */
function emotionOnly(edit: (e: Record<string, unknown>) => void = () => {}): { dir: string; manifest: Manifest } {
  tmp = mkdtempSync(join(tmpdir(), 'picscan-engine-'));
  copyFileSync(join(modelsDir, emotion.file), join(tmp, emotion.file));
  const entry = JSON.parse(JSON.stringify(emotion)) as Record<string, unknown>;
  edit(entry);
  const json = { version: 1, models: [entry] };
  writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(json));
  return { dir: tmp, manifest: parseManifest(json) };
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a rejection');
}

describe('inference engine', () => {
  it('loads lazily once, shares concurrent loads and runs a model', async () => {
    const { dir, manifest: m } = emotionOnly();
    const engine = new InferenceEngine(m, { modelsDir: dir, intraOpNumThreads: 1 });
    const [a, b] = await Promise.all([engine.session('emotion'), engine.session('emotion')]);
    expect(a).toBe(b);
    const out = await engine.run('emotion', zeroFeeds(emotion));
    expect(out.emotion!.dims).toEqual([1, 7]);
    expect(out.emotion!.data.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 5);
    await engine.dispose();
  });

  it('detects a sha256 mismatch before opening the model', async () => {
    const { dir, manifest: m } = emotionOnly((e) => (e.sha256 = '0'.repeat(64)));
    const err = await rejection(new InferenceEngine(m, { modelsDir: dir }).session('emotion'));
    expect(err.code).toBe('model-failed');
    expect(err.message).toContain('sha256');
    expect(err.details).toMatchObject({ model: 'emotion', expected: '0'.repeat(64), actual: emotion.sha256 });
  });

  it('an absent file is model-missing, and a retry after fixing it succeeds', async () => {
    const { dir, manifest: m } = emotionOnly();
    rmSync(join(dir, emotion.file));
    const engine = new InferenceEngine(m, { modelsDir: dir, intraOpNumThreads: 1 });
    expect((await rejection(engine.session('emotion'))).code).toBe('model-missing');
    copyFileSync(join(modelsDir, emotion.file), join(dir, emotion.file));
    await expect(engine.session('emotion')).resolves.toBeDefined();
    await engine.dispose();
  });

  it('an unknown id is model-missing', () => {
    const engine = new InferenceEngine(manifest, { modelsDir });
    expect(() => engine.spec('nope')).toThrow(expect.objectContaining({ code: 'model-missing' }));
  });

  it('names missing, unexpected and mis-shaped feeds', async () => {
    const { dir, manifest: m } = emotionOnly();
    const engine = new InferenceEngine(m, { modelsDir: dir, intraOpNumThreads: 1, warmUp: false });
    const missing = await rejection(engine.run('emotion', {}));
    expect(missing.code).toBe('model-failed');
    expect(missing.message).toContain('missing feed(s) input');
    const extra = await rejection(engine.run('emotion', { ...zeroFeeds(emotion), pixels: { data: new Float32Array(1), dims: [1] } }));
    expect(extra.message).toContain('unexpected feed pixels');
    const shaped = await rejection(engine.run('emotion', { input: { data: new Float32Array(64 * 64 * 3), dims: [1, 64, 64, 3] } }));
    expect(shaped.message).toContain('feed input has shape [1,64,64,3]');
    // emotion takes any batch (manifest batch -1): 3 crops in one run are fine, a wrong rank is not.
    expect(shaped.details).toMatchObject({ feed: 'input', expected: '[-1,64,64,1]' });
    const three = await engine.run('emotion', { input: { data: new Float32Array(3 * 64 * 64), dims: [3, 64, 64, 1] } });
    expect([...three['emotion']!.dims]).toEqual([3, 7]);
    const flat = await rejection(engine.run('emotion', { input: { data: new Float32Array(64 * 64), dims: [64, 64, 1] } }));
    expect(flat.message).toContain('feed input has shape [64,64,1]');
    await engine.dispose();
  });

  it('a cancelled signal rejects with cancelled', async () => {
    const { dir, manifest: m } = emotionOnly();
    const engine = new InferenceEngine(m, { modelsDir: dir, intraOpNumThreads: 1, warmUp: false });
    const ac = new AbortController();
    ac.abort();
    expect((await rejection(engine.run('emotion', zeroFeeds(emotion), ac.signal))).code).toBe('cancelled');
    await engine.dispose();
  });

  it('maxModelThreads caps the intra-op threads of the named models only', () => {
    const engine = new InferenceEngine(manifest, { modelsDir, intraOpNumThreads: 2, maxModelThreads: { emotion: 1, gear: 4 } });
    expect(engine.threadsFor('emotion')).toBe(1);
    expect(engine.threadsFor('gear')).toBe(2);
    expect(engine.threadsFor('faceres')).toBe(2);
  });

  it('opens the dynamic-batch (per-face) models without the memory pattern, and their batches still equal single runs', async () => {
    const engine = new InferenceEngine(manifest, { modelsDir, intraOpNumThreads: 1 });
    for (const id of ['facemesh', 'gear', 'faceres', 'emotion']) expect(engine.memoryPatternFor(id), id).toBe(false);
    for (const id of ['blazeface-back', 'centernet', 'mobilenet-v2-imagenet', 'nsfw-mobilenet-v2-mid'])
      expect(engine.memoryPatternFor(id), id).toBe(true);
    // Batch sizes change from run to run, as they do from image to image: each row must equal its
    // single run (no tensor of an earlier, larger batch leaks into a later one).
    const [h, w, c] = emotion.inputs[0]!.shape.slice(1) as [number, number, number];
    const row = h * w * c;
    let seed = 7;
    const random = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const rows = Array.from({ length: 6 }, () => Float32Array.from({ length: row }, random));
    const run = async (batch: Float32Array[]): Promise<Float32Array> => {
      const data = new Float32Array(batch.length * row);
      batch.forEach((r, i) => data.set(r, i * row));
      return (await engine.run('emotion', { [emotion.inputs[0]!.name]: { data, dims: [batch.length, h, w, c] } })).emotion!
        .data as Float32Array;
    };
    const single = await Promise.all(rows.map((r) => run([r])));
    for (const size of [3, 1, 6, 2, 5]) {
      const out = await run(rows.slice(0, size));
      for (let i = 0; i < size; i++) for (let k = 0; k < 7; k++) expect(out[i * 7 + k]).toBeCloseTo(single[i]![k]!, 5);
    }
    await engine.dispose();
  });

  it('a file ORT cannot parse is model-failed', async () => {
    const { dir } = emotionOnly();
    writeFileSync(join(dir, emotion.file), 'not an onnx model');
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update('not an onnx model').digest('hex');
    const patched = parseManifest({ version: 1, models: [{ ...JSON.parse(JSON.stringify(emotion)), sha256: sha }] });
    const err = await rejection(new InferenceEngine(patched, { modelsDir: dir }).session('emotion'));
    expect(err.code).toBe('model-failed');
  });
});
