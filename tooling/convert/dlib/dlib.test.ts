/**
 * dlib-face-descriptor: the shipped ONNX file is what the builder writes (byte-identical, the
 * manifest's sha256), and it computes what face-api's own TF.js FaceRecognitionNet computes
 * (wasm backend) on three face crops and seeded random pixels.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InferenceEngine, loadManifest } from '../../../src-main/inference';
import { repoRoot } from '../../../test/helpers/paths';
import { parityCases } from '../parity-inputs';
import { packageDir } from '../tfjs-source';
import { buildDlibDescriptor, dlibDescriptorSpec, DLIB_DESCRIPTOR_ID } from './build';
import { FACE_API } from './graph';

/** Relative tolerance, as for the converted models (onnx-vs-tfjs.test.ts). */
const REL_TOL = 1e-4;

interface FaceApi {
  tf: {
    setBackend(n: string): Promise<boolean>;
    ready(): Promise<void>;
    tensor4d(d: Float32Array, s: number[]): { dispose(): void };
  };
  nets: { faceRecognitionNet: { loadFromDisk(dir: string): Promise<void>; computeFaceDescriptor(t: unknown): Promise<Float32Array> } };
}

const modelsDir = join(repoRoot, 'models');
const manifest = loadManifest(join(modelsDir, 'manifest.json'));
const engine = new InferenceEngine(manifest, { modelsDir, intraOpNumThreads: 1, warmUp: false });
afterAll(() => engine.dispose());

describe('dlib-face-descriptor', () => {
  it('rebuilds byte-identical to the shipped file and manifest entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-dlib-'));
    try {
      const entry = buildDlibDescriptor(dir);
      const { file: _f, ...rest } = entry;
      const { file: _g, ...shipped } = manifest.models.get(DLIB_DESCRIPTOR_ID)!;
      expect(rest).toEqual(shipped);
      expect(Buffer.compare(readFileSync(join(dir, entry.file)), readFileSync(join(modelsDir, entry.file)))).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("matches face-api's TF.js run within 1e-4 relative on face crops and random input", async () => {
    const api = createRequire(import.meta.url)(join(packageDir(FACE_API), 'dist', 'face-api.node-wasm.js')) as FaceApi;
    await api.tf.setBackend('wasm');
    await api.tf.ready();
    await api.nets.faceRecognitionNet.loadFromDisk(join(packageDir(FACE_API), 'model'));
    const cases = await parityCases(dlibDescriptorSpec);
    expect(cases.map((c) => c.name)).toEqual(['obama_portrait.jpg', 'biden_portrait.jpg', 'grace_hopper.jpg', 'random']);
    for (const c of cases) {
      const t = api.tf.tensor4d(c.data, dlibDescriptorSpec.input.shape);
      const ref = await api.nets.faceRecognitionNet.computeFaceDescriptor(t);
      t.dispose();
      const got = (await engine.run(DLIB_DESCRIPTOR_ID, { input: { data: c.data, dims: dlibDescriptorSpec.input.shape } })).descriptor!;
      expect([...got.dims]).toEqual([1, 128]);
      let worst = 0;
      ref.forEach((b, i) => (worst = Math.max(worst, Math.abs(got.data[i]! - b) / Math.max(1, Math.abs(b)))));
      expect(worst, c.name).toBeLessThanOrEqual(REL_TOL);
    }
  });
});
