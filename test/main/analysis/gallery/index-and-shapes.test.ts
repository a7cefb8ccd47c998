import { describe, expect, it } from 'vitest';
import {
  assignPeople,
  bestEntries,
  GalleryIndex,
  localMid,
  matchConfidence,
  ORT_SCAN_MIN_ROWS,
  placeWindows,
  toLandmarkAnnotations,
  toLandmarkDetails,
  topRows,
} from '../../../../src-main/analysis/gallery/index';
import { l2Normalize } from '../../../../src-main/inference';

function randomUnit(dim: number, seed: number): Float32Array {
  let s = seed;
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) v[i] = (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.3;
  return l2Normalize(v);
}

describe('GalleryIndex', () => {
  it('scores by cosine and reduces rows to each entry’s best reference', async () => {
    const index = GalleryIndex.build(2, [
      { entryId: 7, vector: Float32Array.from([1, 0]) },
      { entryId: 9, vector: Float32Array.from([0, 1]) },
      { entryId: 7, vector: l2Normalize([1, 1]) },
    ]);
    const best = await index.best(l2Normalize([0.2, 1]), 2);
    expect(best.map((b) => b.entryId)).toEqual([9, 7]);
    expect(best[1]!.row).toBe(2);
    expect(best[0]!.score).toBeCloseTo(1 / Math.hypot(0.2, 1), 5);
  });

  it('finds the same best entries, with exact scores, through the int8 ONNX scan on a large gallery', async () => {
    const dim = 64;
    const rows = Array.from({ length: ORT_SCAN_MIN_ROWS + 10 }, (_, i) => ({ entryId: (i % 300) + 1, vector: randomUnit(dim, i + 1) }));
    const index = GalleryIndex.build(dim, rows);
    for (const seed of [999, 4242, 31337]) {
      const q = randomUnit(dim, seed);
      const js = index.scoreJs(q);
      const int8 = await index.scoreInt8(q);
      expect(int8).toHaveLength(rows.length);
      for (let i = 0; i < js.length; i += 37) expect(Math.abs(int8[i]! - js[i]!)).toBeLessThan(0.01);
      expect(await index.best(q, 3)).toEqual(bestEntries(js, index.entryIds, 3));
    }
    await index.dispose();
  });

  it('selects the largest values with topRows', () => {
    const v = Float32Array.from([5, 1, 9, 3, 7, 8, 2]);
    expect(topRows(v, 3).sort()).toEqual([2, 4, 5]);
    expect(topRows(v, 10).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('refuses vectors of the wrong length', () => {
    expect(() => GalleryIndex.build(3, [{ entryId: 1, vector: new Float32Array(2) }])).toThrow(RangeError);
  });
});

describe('person assignment', () => {
  const c = (entryId: number, score: number) => ({ entryId, score, row: 0 });

  it('needs the threshold and a margin over the runner-up person', () => {
    const rule = { minScore: 0.5, minMargin: 0.05 };
    expect(assignPeople([[c(1, 0.7), c(2, 0.4)]], rule)).toEqual([{ face: 0, entryId: 1, score: 0.7 }]);
    expect(assignPeople([[c(1, 0.49)]], rule)).toEqual([]);
    expect(assignPeople([[c(1, 0.7), c(2, 0.68)]], rule)).toEqual([]);
    expect(assignPeople([[]], rule)).toEqual([]);
  });

  it('names a person at most once per image, keeping the stronger face', () => {
    const rule = { minScore: 0.5, minMargin: 0.05 };
    expect(assignPeople([[c(1, 0.6)], [c(1, 0.8)], [c(2, 0.9)]], rule)).toEqual([
      { face: 1, entryId: 1, score: 0.8 },
      { face: 2, entryId: 2, score: 0.9 },
    ]);
  });
});

describe('output shapes', () => {
  const entry = { id: 4, kind: 'place' as const, name: 'Colosseum', mid: null, latitude: 41.89, longitude: 12.49 };

  it('builds the category detail and the spec 2.3 document (clockwise vertices, local mid)', () => {
    const hits = [{ entry, confidence: 0.9, rect: { left: 10.4, top: 0, width: 100, height: 50.6 } }];
    expect(toLandmarkDetails(hits)).toEqual([{ name: 'Colosseum', confidence: 0.9 }]);
    expect(toLandmarkAnnotations(hits)).toEqual([
      {
        mid: localMid(4),
        description: 'Colosseum',
        score: 0.9,
        boundingPoly: {
          vertices: [
            { x: 10, y: 0 },
            { x: 110, y: 0 },
            { x: 110, y: 51 },
            { x: 10, y: 51 },
          ],
        },
        locations: [{ latLng: { latitude: 41.89, longitude: 12.49 } }],
      },
    ]);
  });

  it('maps similarity to confidence: 0.5 at the threshold, rising towards 1', () => {
    expect(matchConfidence(0.6, 0.6, 0.05)).toBe(0.5);
    expect(matchConfidence(0.8, 0.6, 0.05)).toBeGreaterThan(0.98);
    expect(matchConfidence(0.5, 0.6, 0.05)).toBeLessThan(0.2);
  });

  it('covers the whole frame and overlapping squares at two scales', () => {
    const w = placeWindows(600, 400);
    expect(w[0]).toEqual({ left: 0, top: 0, width: 600, height: 400 });
    for (const r of w) expect(r.left >= 0 && r.top >= 0 && r.left + r.width <= 600 && r.top + r.height <= 400).toBe(true);
    expect(w.filter((r) => r.width === 400)).toHaveLength(2);
    expect(w.filter((r) => r.width === 280).length).toBeGreaterThanOrEqual(4);
  });
});
