import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adultFromProbabilities, ADULT_THRESHOLDS } from '../../../src-main/analysis/adult';
import { CONTENT_NET_MODEL_ID, contentNetFeeds } from '../../../src-main/analysis/content-net';
import { centernetDecode, COCO80 } from '../../../src-main/analysis/objects';
import { nms } from '../../../src-main/analysis/objects/nms';
import { imageInput, letterboxFit, letterboxTensor, loadManifest, resizeBilinearToTensor } from '../../../src-main/inference';
import { repoRoot } from '../../helpers/paths';

// The shipped manifest's preprocessing: the pipelines read their numbers from it.
const models = loadManifest(join(repoRoot, 'models', 'manifest.json')).models;
const centernetPre = imageInput(models.get('centernet')!).pre;

describe('bilinear resize (TF.js resizeBilinear semantics)', () => {
  it('maps corners to corners with alignCorners and interpolates in between', () => {
    // 2×1 image: black, white → 3 samples: 0, 127.5, 255
    const img = { data: new Uint8Array([0, 0, 0, 255, 255, 255]), width: 2, height: 1 };
    const t = resizeBilinearToTensor(img, 3, 1, { alignCorners: true, layout: 'NHWC', scale: 1, offset: 0 });
    expect(Array.from(t.data.filter((_, i) => i % 3 === 0))).toEqual([0, 127.5, 255]);
    const u = resizeBilinearToTensor(img, 4, 1, { alignCorners: false, layout: 'NCHW', scale: 1, offset: 0 });
    expect(u.dims).toEqual([1, 3, 1, 4]);
    expect(Array.from(u.data.slice(0, 4))).toEqual([0, 127.5, 255, 255]); // src x = 0, 0.5, 1, 1.5→clamped
  });

  it('feeds the nsfw model NHWC 224×224 values in 0..1, as nsfwjs does', async () => {
    const img = { data: new Uint8Array(8 * 6 * 3).fill(255), width: 8, height: 6 };
    const { input } = await contentNetFeeds(img, models.get(CONTENT_NET_MODEL_ID)!);
    expect(input!.dims).toEqual([1, 224, 224, 3]);
    expect(input!.data.reduce((m, v) => Math.min(m, v), 2)).toBeCloseTo(1, 6);
  });
});

describe('adult and racy scores', () => {
  it('combines the nsfwjs classes with the documented thresholds', () => {
    const safe = adultFromProbabilities({ Drawing: 0.1, Hentai: 0.01, Neutral: 0.85, Porn: 0.02, Sexy: 0.02 });
    expect(safe).toEqual({ isAdultContent: false, isRacyContent: false, adultScore: 0.03, racyScore: 0.045 });
    const porn = adultFromProbabilities({ Drawing: 0, Hentai: 0.05, Neutral: 0.05, Porn: 0.8, Sexy: 0.1 });
    expect(porn.isAdultContent).toBe(true);
    expect(porn.isRacyContent).toBe(true);
    expect(porn.adultScore).toBeCloseTo(0.85, 3);
    const sexy = adultFromProbabilities({ Drawing: 0, Hentai: 0, Neutral: 0.3, Porn: 0.05, Sexy: 0.65 });
    expect(sexy.isAdultContent).toBe(false);
    expect(sexy.racyScore).toBeGreaterThanOrEqual(ADULT_THRESHOLDS.racy);
  });
});

describe('CenterNet decoding', () => {
  it('turns a heatmap peak and its edge distances into a source-pixel box of the letterboxed image', () => {
    const heat = new Float32Array(128 * 128 * 80);
    const off = new Float32Array(128 * 128 * 4);
    const cell = 64 * 128 + 32; // row 64, col 32 → input point (128, 256)
    const cat = COCO80.indexOf('cat');
    heat[cell * 80 + cat] = 0.9;
    heat[(cell + 1) * 80 + cat] = 0.5; // a neighbour: not a peak
    off.set([28, 56, 100, 44], cell * 4); // left, top, right, bottom in 512-px units
    const dets = centernetDecode(
      { heatmap: { data: heat, dims: [1, 128, 128, 80] }, box_offsets: { data: off, dims: [1, 128, 128, 4] } },
      1024,
      768,
      {
        minScore: 0.3,
        iouMax: 0.5,
        maxCount: 10,
      },
    );
    expect(dets).toHaveLength(1);
    expect(dets[0]!.label).toBe('cat');
    // 1024×768 fits the input at scale 0.5 on both axes: x (128-28)*2 = 200 .. (128+100)*2 = 456;
    // y (256-56)*2 = 400 .. (256+44)*2 = 600
    expect(dets[0]!.box).toEqual({ left: 200, top: 400, width: 256, height: 200 });
  });

  it('letterboxes: aspect kept, image at the top-left, zeros elsewhere, boxes clipped to the image', () => {
    expect(letterboxFit(1024, 768, centernetPre.size)).toEqual({ scale: 0.5, width: 512, height: 384 });
    expect(letterboxFit(100, 400, centernetPre.size)).toEqual({ scale: 1.28, width: 128, height: 512 });
    const small = { data: new Uint8Array(2 * 3 * 3).fill(200), width: 2, height: 3 };
    const t = letterboxTensor(small, centernetPre);
    expect(t.dims).toEqual([1, 512, 512, 3]);
    expect(t.data[0]).toBe(200); // (0, 0)
    expect(t.data[(2 * 512 + 1) * 3 + 2]).toBe(200); // (x 1, y 2), blue
    expect(t.data[2 * 3]).toBe(0); // (x 2, y 0): padding
    expect(t.data[3 * 512 * 3]).toBe(0); // (x 0, y 3): padding
    const heat = new Float32Array(128 * 128 * 80);
    const off = new Float32Array(128 * 128 * 4);
    const cell = 10 * 128 + 10; // input point (40, 40)
    heat[cell * 80] = 0.9;
    off.set([10, 10, 500, 400], cell * 4); // reaches into the padding
    const [d] = centernetDecode(
      { heatmap: { data: heat, dims: [1, 128, 128, 80] }, box_offsets: { data: off, dims: [1, 128, 128, 4] } },
      1024,
      768,
      {
        minScore: 0.3,
        iouMax: 0.5,
        maxCount: 10,
      },
    );
    expect(d!.box).toEqual({ left: 60, top: 60, width: 1024 - 60, height: 768 - 60 });
  });

  it('suppresses overlapping boxes of the same label only', () => {
    const a = { label: 'dog' as const, score: 0.9, box: { left: 0, top: 0, width: 10, height: 10 } };
    const b = { label: 'dog' as const, score: 0.8, box: { left: 1, top: 1, width: 10, height: 10 } };
    const c = { label: 'cat' as const, score: 0.7, box: { left: 1, top: 1, width: 10, height: 10 } };
    expect(nms([b, a, c], 0.5, 10)).toEqual([a, c]);
  });
});
