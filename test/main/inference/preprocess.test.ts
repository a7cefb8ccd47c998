// The one preprocessing step, driven by manifest data: value mapping, letterbox placement and
// padding, stretch resize, and the face window warp (RGB and luma), on synthetic images.
import { describe, expect, it } from 'vitest';
import {
  imageFeeds,
  letterboxTensor,
  inputLength,
  letterboxFit,
  stretchFrame,
  validateFeeds,
  valueMap,
  windowBatchFeeds,
  windowFeeds,
  type ModelSpec,
  type Preprocess,
} from '../../../src-main/inference';

const base: Preprocess = { size: [4, 4], resize: 'stretch', interpolation: 'bilinear', channels: 'RGB', layout: 'NHWC', dtype: 'float32' };

function specOf(pre: Preprocess): ModelSpec {
  const c = pre.channels === 'grey' ? 1 : 3;
  const shape = pre.layout === 'NHWC' ? [1, pre.size[1], pre.size[0], c] : [1, c, pre.size[1], pre.size[0]];
  return {
    id: 'test-model',
    task: 'test',
    file: 'test.onnx',
    sha256: '0'.repeat(64),
    bytes: 1,
    source: { package: 'test', version: '0', path: 'test' },
    license: 'test',
    inputs: [{ name: 'pixels', shape, dtype: 'float32', layout: pre.layout, range: [0, 1], normalization: 'test', preprocess: pre }],
    outputs: [{ name: 'out', shape: [1], meaning: 'test' }],
  };
}

const solid = (w: number, h: number, rgb: [number, number, number]) => {
  const data = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) data.set(rgb, i * 3);
  return { data, width: w, height: h };
};

describe('manifest-driven preprocessing', () => {
  it('maps values by scale/offset, or by mean/std as (x/255 − mean)/std', () => {
    expect(valueMap({ ...base, scale: 1 / 127.5, offset: -1 })).toEqual({ scale: [1 / 127.5, 1 / 127.5, 1 / 127.5], offset: [-1, -1, -1] });
    const m = valueMap({ ...base, mean: [0.5, 0.25, 0], std: 0.5 });
    expect(255 * m.scale[0] + m.offset[0]).toBeCloseTo(1, 12);
    expect(0 * m.scale[1] + m.offset[1]).toBeCloseTo(-0.5, 12);
    expect(valueMap(base)).toEqual({ scale: [1, 1, 1], offset: [0, 0, 0] });
  });

  it('stretches the whole image to the input size, in the declared layout and under the input name', async () => {
    const pre: Preprocess = { ...base, layout: 'NCHW', scale: [1, 2, 3], offset: 0 };
    const { pixels } = await imageFeeds(solid(10, 6, [10, 20, 30]), specOf(pre));
    expect(pixels!.dims).toEqual([1, 3, 4, 4]);
    expect([pixels!.data[0], pixels!.data[16], pixels!.data[32]]).toEqual([10, 40, 90]);
  });

  it('stretches a panorama to a frame of its own aspect when the input has a wide frame', async () => {
    const pre: Preprocess = { ...base, size: [321, 321], wideFrame: { fromAspect: 2.5, maxAspect: 6, step: 16, offset: 1 } };
    expect(stretchFrame(640, 480, pre)).toEqual([321, 321]);
    expect(stretchFrame(1000, 400, pre)).toEqual([321, 321]); // 2.5:1: not beyond
    expect(stretchFrame(1800, 600, pre)).toEqual([561, 193]); // 3:1, 16k + 1, ≈ 321² px
    expect(stretchFrame(600, 1800, pre)).toEqual([193, 561]);
    expect(stretchFrame(16_000, 50, pre)).toEqual(stretchFrame(6000, 1000, pre)); // capped at 6:1
    expect(stretchFrame(1800, 600, { ...pre, wideFrame: undefined })).toEqual([321, 321]);
    const { pixels } = await imageFeeds(solid(1800, 600, [10, 20, 30]), specOf(pre));
    expect(pixels!.dims).toEqual([1, 193, 561, 3]);
    const io = { modelId: 'm', inputs: [{ name: 'pixels', shape: [1, 321, 321, 3], preprocess: pre }] };
    expect(() => validateFeeds(io, { pixels: pixels! })).not.toThrow();
    expect(() => validateFeeds(io, { pixels: { data: new Float32Array(192 * 561 * 3), dims: [1, 192, 561, 3] } })).toThrow(/shape/);
  });

  it('letterboxes at the top-left with the pad value, aspect kept', async () => {
    const pre: Preprocess = { ...base, size: [8, 8], resize: 'letterbox', scale: 1, offset: -100, pad: 50 };
    expect(letterboxFit(20, 10, pre.size)).toEqual({ scale: 0.4, width: 8, height: 4 });
    const { pixels } = await imageFeeds(solid(20, 10, [200, 200, 200]), specOf(pre));
    expect(pixels!.dims).toEqual([1, 8, 8, 3]);
    expect(pixels!.data[0]).toBe(100); // image, row 0
    expect(pixels!.data[(3 * 8 + 7) * 3]).toBe(100); // image, last row 3
    expect(pixels!.data[4 * 8 * 3]).toBe(-50); // padding from row 4
  });

  it('fills every letterbox element as value·scale[c] + offset[c] or the pad, in both layouts', () => {
    // A noise image (every byte differs from its neighbours), so a swapped channel, row or plane shows.
    const img = { data: Uint8Array.from({ length: 7 * 5 * 3 }, (_, i) => (i * 37 + 11) % 256), width: 7, height: 5 };
    for (const layout of ['NHWC', 'NCHW'] as const) {
      for (const map of [
        { scale: 1, offset: 0, pad: 0 },
        { scale: [0.5, 2, -1] as [number, number, number], offset: [1, -3, 7] as [number, number, number], pad: 9 },
      ]) {
        const pre: Preprocess = { ...base, size: [9, 8], resize: 'letterbox', layout, ...map };
        const { scale, offset } = valueMap(pre);
        const t = letterboxTensor(img, pre);
        expect(t.dims).toEqual(layout === 'NHWC' ? [1, 8, 9, 3] : [1, 3, 8, 9]);
        for (let y = 0; y < 8; y++)
          for (let x = 0; x < 9; x++)
            for (let c = 0; c < 3; c++) {
              const inside = x < img.width && y < img.height;
              const v = inside ? img.data[(y * img.width + x) * 3 + c]! : map.pad;
              const at = layout === 'NHWC' ? (y * 9 + x) * 3 + c : c * 72 + y * 9 + x;
              expect(t.data[at]).toBeCloseTo(v * scale[c]! + offset[c]!, 5);
            }
      }
    }
  });

  it('warps a face window into RGB or luma values as declared', () => {
    const img = solid(32, 32, [100, 50, 200]);
    const win = { cx: 16, cy: 16, size: 16, angleRad: 0 };
    const rgb = windowFeeds(img, specOf({ ...base, size: [8, 8], resize: 'window', scale: 1 / 255, offset: 0 }), win).pixels!;
    expect(rgb.dims).toEqual([1, 8, 8, 3]);
    expect(rgb.data[0]).toBeCloseTo(100 / 255, 6);
    const grey = windowFeeds(
      img,
      specOf({ ...base, size: [8, 8], resize: 'window', channels: 'grey', scale: 2 / 255, offset: -1 }),
      win,
    ).pixels!;
    expect(grey.dims).toEqual([1, 8, 8, 1]);
    expect(grey.data[0]).toBeCloseTo(((0.299 * 100 + 0.587 * 50 + 0.114 * 200) * 2) / 255 - 1, 5);
  });

  it('batches windows: item i is window i warped alone, the batch dim is N; a static batch takes one window', () => {
    const pre: Preprocess = { ...base, resize: 'window', channels: 'grey', scale: 1 / 255, offset: 0 };
    const img = { ...solid(16, 16, [0, 0, 0]), channels: 3 as const };
    for (let i = 0; i < img.data.length; i++) img.data[i] = (i * 37) % 256;
    const wins = [
      { cx: 8, cy: 8, size: 8, angleRad: 0 },
      { cx: 5, cy: 9, size: 6, angleRad: 0.4 },
      { cx: 14, cy: 3, size: 10, angleRad: -1 },
    ];
    const dynamic = specOf(pre);
    dynamic.inputs[0]!.shape = [-1, 4, 4, 1];
    const feeds = windowBatchFeeds(img, dynamic, wins);
    expect(feeds['pixels']!.dims).toEqual([3, 4, 4, 1]);
    const len = inputLength(dynamic);
    expect(len).toBe(16);
    wins.forEach((w, i) =>
      expect([...feeds['pixels']!.data.subarray(i * len, (i + 1) * len)]).toEqual([...windowFeeds(img, specOf(pre), w)['pixels']!.data]),
    );
    expect(windowFeeds(img, dynamic, wins[0]!)['pixels']!.dims).toEqual([1, 4, 4, 1]);
    expect(() => windowBatchFeeds(img, specOf(pre), wins)).toThrow(/one window per run/);
  });
});
