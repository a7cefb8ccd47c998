import { describe, expect, it } from 'vitest';
import { analyzePixels, attachDetails, IMAGENET_MODEL_ID } from '../../../src-main/analysis';
import { AppError } from '../../../src-main/core';
import type { TensorMap } from '../../../src-main/inference';
import { fakeRunner } from './fixtures';
import { DETAILS, VISUAL_FEATURES } from '../../../src-main/shared/spec';

/** A runner returning neutral outputs of the right shapes (no objects, background, a Neutral image). */
const quietRunner = fakeRunner(async (id): Promise<TensorMap> => {
  if (id === 'centernet')
    return {
      heatmap: { data: new Float32Array(128 * 128 * 80), dims: [1, 128, 128, 80] },
      box_offsets: { data: new Float32Array(128 * 128 * 4), dims: [1, 128, 128, 4] },
    };
  if (id === IMAGENET_MODEL_ID) {
    const p = new Float32Array(1001);
    p[0] = 256; // all on "background", in the uint8 output's units
    return { probabilities: { data: p, dims: [1, 1001] } };
  }
  return { probabilities: { data: new Float32Array([0.01, 0, 0.99, 0, 0]), dims: [1, 5] } };
});

function image(
  w: number,
  h: number,
  f: (x: number, y: number) => [number, number, number],
): { data: Uint8Array; width: number; height: number } {
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(f(x, y), (y * w + x) * 3);
  return { data, width: w, height: h };
}

describe('analysis pipeline', () => {
  it('handles tiny, extreme-aspect and uniform images', async () => {
    const all = new Set(VISUAL_FEATURES);
    for (const img of [
      image(50, 50, () => [0, 0, 0]),
      image(2000, 50, (x) => [x % 256, 0, 255 - (x % 256)]),
      image(51, 900, () => [255, 255, 255]),
    ]) {
      const { data } = await analyzePixels(img, all, new Set(DETAILS), { runModel: quietRunner });
      expect(data.categories!.length).toBeGreaterThan(0);
      expect(data.description!.captions).toHaveLength(1);
      expect(data.color!.accentColor).toMatch(/^[0-9A-F]{6}$/);
      expect(data.faces).toEqual([]);
      expect(data.adult).toEqual({ isAdultContent: false, isRacyContent: false, adultScore: 0, racyScore: 0 });
    }
  });

  it('runs only the models the requested features need', async () => {
    const called: string[] = [];
    const runner = fakeRunner(async (id, feeds, signal) => {
      called.push(id);
      return quietRunner.run(id, feeds, signal);
    });
    await analyzePixels(
      image(64, 64, () => [10, 200, 10]),
      new Set(['Color'] as const),
      new Set(),
      { runModel: runner },
    );
    expect(called).toEqual([]);
    await analyzePixels(
      image(64, 64, () => [10, 200, 10]),
      new Set(['Adult'] as const),
      new Set(),
      { runModel: runner },
    );
    expect(called).toEqual(['nsfw-mobilenet-v2-mid']);
    called.length = 0;
    await analyzePixels(
      image(64, 64, () => [10, 200, 10]),
      new Set(['Tags'] as const),
      new Set(),
      { runModel: runner },
    );
    expect(called.sort()).toEqual(['centernet', IMAGENET_MODEL_ID]);
  });

  it('passes model failures through as AppErrors', async () => {
    const failing = fakeRunner(async () => {
      throw new AppError('model-failed', 'Model centernet failed');
    });
    await expect(
      analyzePixels(
        image(64, 64, () => [1, 2, 3]),
        new Set(['Tags'] as const),
        new Set(),
        { runModel: failing },
      ),
    ).rejects.toMatchObject({
      code: 'model-failed',
    });
  });

  it('asks the gallery hook and attaches its matches to the most general category', async () => {
    const gallery = {
      matchLandmarks: async () => ({ details: [{ name: 'Colosseum', confidence: 0.9 }] }),
      matchCelebrities: async () => [],
    };
    const { data } = await analyzePixels(
      image(64, 64, () => [120, 160, 220]),
      new Set(['Categories'] as const),
      new Set(DETAILS),
      { runModel: quietRunner, gallery },
    );
    const host = data.categories!.find((c) => c.detail?.landmarks);
    expect(host?.name).toMatch(/^(building_|outdoor_)$/);
    expect(host!.detail!.landmarks).toEqual([{ name: 'Colosseum', confidence: 0.9 }]);
    const people = attachDetails(
      [
        { name: 'people_', score: 0.9 },
        { name: 'people_portrait', score: 0.8 },
      ],
      new Set(['Celebrities'] as const),
      [],
      [],
    );
    expect(people[0]!.detail).toEqual({ celebrities: [] });
    expect(people[1]!.detail).toBeUndefined();
  });
});
