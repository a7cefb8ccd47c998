// The windows a panorama or banner is looked at through (analysis/wide-windows.ts): the
// classifier's cover the image, the detector's overlap; never more than WIDE_IMAGE.maxWindows.
import { describe, expect, it } from 'vitest';
import { classifierWindows, WIDE_IMAGE, wideWindows, windowViews } from '../../../src-main/analysis/wide-windows';
import { decodeImage, type Box } from '../../../src-main/inference';
import { enlargedJpeg } from '../../helpers/large-photos';

/** Each window's [start, end) along the long side. */
const along = (windows: Box[], wide: boolean): number[][] =>
  windows.map((b) => (wide ? [b.left, b.left + b.width] : [b.top, b.top + b.height]));

describe('wideWindows', () => {
  it('keeps an image up to 2.5:1 whole', () => {
    for (const [w, h] of [
      [640, 480],
      [300, 600],
      [800, 400],
      [1000, 400],
      [50, 50],
    ]) {
      expect(classifierWindows(w!, h!)).toEqual([{ left: 0, top: 0, width: w, height: h }]);
      expect(wideWindows(w!, h!, 1 / 3)).toEqual([{ left: 0, top: 0, width: w, height: h }]);
    }
  });

  it('covers a wide or tall image with as few windows of at most 1.5:1 as it takes, evenly spaced', () => {
    expect(classifierWindows(900, 300)).toEqual([
      { left: 0, top: 0, width: 450, height: 300 },
      { left: 450, top: 0, width: 450, height: 300 },
    ]);
    expect(along(classifierWindows(1000, 300), true)).toEqual([
      [0, 450],
      [275, 725],
      [550, 1000],
    ]);
    expect(classifierWindows(200, 700).map((w) => [w.top, w.height, w.width])).toEqual([
      [0, 300, 200],
      [200, 300, 200],
      [400, 300, 200],
    ]);
  });

  it('makes neighbours share at least the overlap asked for', () => {
    // 3:1: windows of 450 px, steps of at most 300 px.
    expect(along(wideWindows(900, 300, 1 / 3), true)).toEqual([
      [0, 450],
      [225, 675],
      [450, 900],
    ]);
    for (const [w, h] of [
      [1200, 400],
      [1353, 300],
      [300, 1100],
    ]) {
      const windows = wideWindows(w!, h!, 1 / 3);
      const spans = along(windows, w! >= h!);
      for (let i = 1; i < spans.length; i++)
        expect(spans[i - 1]![1]! - spans[i]![0]!).toBeGreaterThanOrEqual(Math.floor(windows[0]!.width / 3));
    }
  });

  it(`never takes more than ${WIDE_IMAGE.maxWindows} windows: a long strip gets longer windows`, () => {
    for (const [w, h, overlap] of [
      [16_000, 50, 0],
      [16_000, 50, 1 / 3],
      [50, 16_000, 1 / 3],
      [4812, 800, 1 / 3],
      [2000, 200, 0],
      [301, 7000, 0],
    ] as const) {
      const windows = wideWindows(w, h, overlap);
      const long = Math.max(w, h);
      const spans = along(windows, w >= h);
      expect(windows.length).toBeLessThanOrEqual(WIDE_IMAGE.maxWindows);
      expect(windows.length).toBeGreaterThan(1);
      expect(spans[0]![0]).toBe(0);
      expect(spans.at(-1)![1]).toBe(long);
      const length = spans[0]![1]! - spans[0]![0]!;
      for (let i = 1; i < spans.length; i++) expect(spans[i - 1]![1]! - spans[i]![0]!).toBeGreaterThanOrEqual(Math.floor(length * overlap));
      for (const b of windows) expect(b.width <= w && b.height <= h && Math.min(b.width, b.height)).toBe(Math.min(w, h));
    }
    // Up to the cap, windows keep a usual photo's shape.
    for (const b of wideWindows(1200, 300, 1 / 3))
      expect(Math.max(b.width, b.height) / Math.min(b.width, b.height)).toBeLessThanOrEqual(WIDE_IMAGE.windowAspect + 0.01);
  });
});

describe('windowViews', () => {
  it("cuts a large panorama's windows from its working copy and maps boxes back to the image", async () => {
    const pano = await decodeImage(new Uint8Array(await enlargedJpeg('colosseum.jpg', 9000, 2000)), { maxPixels: 50e6 });
    const windows = wideWindows(pano.width, pano.height, 1 / 3);
    const views = await windowViews(pano, windows);
    expect(views).toHaveLength(windows.length);
    for (const v of views) {
      expect(v.pixels.height).toBe(512); // the copy's short side, not 2 000
      const back = v.toImage({ left: 0, top: 0, width: v.pixels.width, height: v.pixels.height });
      for (const k of ['left', 'top', 'width', 'height'] as const) expect(Math.abs(back[k] - v.window[k])).toBeLessThanOrEqual(4);
    }
    // A small image's windows are its own pixels.
    const small = { data: new Uint8Array(900 * 300 * 3), width: 900, height: 300, channels: 3 as const };
    const [first] = await windowViews(small, wideWindows(900, 300, 1 / 3));
    expect([first!.pixels.width, first!.pixels.height]).toEqual([450, 300]);
    expect(first!.toImage({ left: 10, top: 20, width: 30, height: 40 })).toEqual({ left: 10, top: 20, width: 30, height: 40 });
  });
});
