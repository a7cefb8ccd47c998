/**
 * The session's element conversions: float feeds of the uint8 models become bytes as ONNX's
 * QuantizeLinear rounds them, and outputs of any element type come back as float32 (DeepLab's
 * arg-max is int64) with the same values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeImage, imageFeeds, loadManifest, openSession, type Session } from '../../../src-main/inference';
import { asFloat32, toUint8 } from '../../../src-main/inference/session';
import { fixture, repoRoot } from '../../helpers/paths';

const modelsDir = join(repoRoot, 'models');
const manifest = loadManifest(join(modelsDir, 'manifest.json'));
const sessions: Session[] = [];
afterAll(async () => Promise.all(sessions.map((s) => s.dispose())));

describe('feed and output conversion', () => {
  it('rounds uint8 feeds half to even and clamps them to 0..255', () => {
    const bytes = toUint8(Float32Array.from([-3, 0, 0.5, 1.5, 2.5, 3.49, 127.5, 254.6, 255, 300, NaN]));
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...bytes]).toEqual([0, 0, 0, 2, 2, 3, 128, 255, 255, 255, 0]);
  });

  it('keeps float32 outputs as they are and converts other element types by value', () => {
    const f = Float32Array.from([0.25, -1]);
    expect(asFloat32(f)).toBe(f);
    expect([...asFloat32(Uint8Array.from([0, 7, 255]))]).toEqual([0, 7, 255]);
    expect([...asFloat32(Int32Array.from([-5, 40]))]).toEqual([-5, 40]);
    expect([...asFloat32(BigInt64Array.from([0n, 15n, -2n]))]).toEqual([0, 15, -2]);
  });

  it('feeds the uint8 segmenter and reads its int64 arg-max as VOC class numbers', async () => {
    const spec = manifest.models.get('deeplabv3-pascal')!;
    const s = await openSession(
      new Uint8Array(readFileSync(join(modelsDir, spec.file))),
      { modelId: spec.id, inputs: spec.inputs },
      { intraOpNumThreads: 1 },
    );
    sessions.push(s);
    const img = await decodeImage(readFileSync(fixture('cat_chelsea.jpg')), { maxPixels: 50e6 });
    const out = Object.values(await s.run(await imageFeeds(img, spec)))[0]!;
    expect(out.data).toBeInstanceOf(Float32Array);
    const classes = new Set(out.data);
    for (const c of classes) expect(Number.isInteger(c) && c >= 0 && c <= 20).toBe(true);
    // The cat (VOC class 8) covers much of the photo.
    expect(out.data.filter((c) => c === 8).length / out.data.length).toBeGreaterThan(0.2);
  });
});
