import { describe, expect, it } from 'vitest';
import { ResultsQuery } from '../../../src-main/store';
import type { ResultFilter, ResultItem } from '../../../src-main/shared/batch';
import { createTestDb } from '../../helpers/db';
import { columnsFor, seedBatch } from './seed';

const N = 300;
const db = createTestDb();
const other = seedBatch(db, 20); // another batch: must never leak into results
const batchId = seedBatch(db, N, 7);
const q = new ResultsQuery(db);
const all = Array.from({ length: N }, (_, i) => ({ i, c: columnsFor(i) }));

/** Expected line indexes for a predicate over the seeded columns. */
const expected = (pred: (c: ReturnType<typeof columnsFor>, i: number) => boolean): number[] =>
  all.filter(({ c, i }) => pred(c, i)).map(({ i }) => i);
const lineIndexes = (items: ResultItem[]): number[] => items.map((it) => Number(/\/(\d+)\.jpg$/.exec(it.url)![1])).sort((a, b) => a - b);
const run = (filter: Omit<ResultFilter, 'batchId'>): number[] => {
  const page = q.page({ filter: { batchId, ...filter }, limit: 500 });
  expect(page.total).toBe(page.items.length);
  return lineIndexes(page.items);
};

describe('result queries', () => {
  it('filters by every ResultFilter field', () => {
    expect(run({ status: ['failed'] })).toEqual([300, 301, 302, 303, 304, 305, 306]);
    expect(run({ tags: ['dog'] })).toEqual(expected((_c, i) => i % 2 === 0));
    expect(run({ tags: ['cat', 't3'], tagMinConfidence: 0.5 })).toEqual(
      expected((c, i) => i % 2 === 1 && i % 30 === 3 && 0.2 + (i % 8) / 10 >= 0.5),
    );
    expect(run({ categories: ['outdoor_'] })).toEqual(expected((_c, i) => i % 3 === 0));
    expect(run({ minFaces: 2, maxFaces: 2 })).toEqual(expected((c) => c.faceCount === 2));
    expect(run({ minAdult: 0.5, maxAdult: 0.6 })).toEqual(expected((c) => c.adultScore! >= 0.5 && c.adultScore! <= 0.6));
    expect(run({ minRacy: 0.9, maxRacy: 0.95 })).toEqual(expected((c) => c.racyScore! >= 0.9 && c.racyScore! <= 0.95));
    expect(run({ colors: ['Red', 'Blue'] })).toEqual(expected((c) => c.colors.includes('Red') || c.colors.includes('Blue')));
    expect(run({ isBW: true })).toEqual(expected((c) => c.isBW === true));
    expect(run({ minClipArt: 3 })).toEqual(expected((c) => c.clipArtType === 3));
    expect(run({ lineDrawing: true })).toEqual(expected((c) => c.lineDrawingType === 1));
    expect(run({ celebrity: 'grace hopper' })).toEqual(expected((_c, i) => i % 50 === 0));
    expect(run({ landmark: 'Colosseum' })).toEqual(expected((_c, i) => i % 70 === 1));
    expect(run({ captionText: 'DOG ON' })).toEqual(expected((_c, i) => i % 10 === 0));
    expect(run({ captionText: 'r 1' })).toEqual(expected((c) => c.caption!.toLowerCase().includes('r 1')));
    expect(run({ captionText: '%' })).toEqual([]);
    expect(run({ captionText: '"quoted" OR x' })).toEqual([]);
    expect(run({ tags: ['dog'], isBW: true, minFaces: 1 })).toEqual(
      expected((c, i) => i % 2 === 0 && c.isBW === true && c.faceCount! >= 1),
    );
  });

  it('pages and sorts', () => {
    const first = q.page({ filter: { batchId, status: ['done'] }, sort: 'adult', limit: 5 });
    expect(first.total).toBe(N);
    expect(first.items.map((i) => i.adultScore)).toEqual([0.99, 0.99, 0.99, 0.98, 0.98]);
    const second = q.page({ filter: { batchId }, sort: 'id', offset: 5, limit: 5 });
    expect(lineIndexes(second.items)).toEqual([5, 6, 7, 8, 9]);
    const failedLast = q.page({ filter: { batchId }, sort: 'faces', order: 'asc', offset: N, limit: 10 });
    expect(failedLast.items.every((i) => i.status === 'failed')).toBe(true); // nulls last
    expect(q.page({ filter: { batchId: other } }).total).toBe(20);
    // Across batches (no batch id): counted in SQL.
    expect(q.page({ filter: { minFaces: 3 }, limit: 1 }).total).toBe(expected((c) => c.faceCount === 3).length + 5);
    expect(q.facets({ minFaces: 3 }).total).toBe(expected((c) => c.faceCount === 3).length + 5);
    // A result-level filter sorted by a result column: ids sorted first, then the page's rows read.
    const faces = q.page({ filter: { batchId, minFaces: 1 }, sort: 'adult', offset: 3, limit: 6 });
    const byAdult = expected((c) => c.faceCount! >= 1).sort((a, b) => columnsFor(b).adultScore! - columnsFor(a).adultScore! || b - a);
    expect(lineIndexes(faces.items)).toEqual(byAdult.slice(3, 9).sort((a, b) => a - b));
    expect(faces.items.map((i) => i.adultScore)).toEqual(byAdult.slice(3, 9).map((i) => columnsFor(i).adultScore));
    expect(faces.items.every((i) => i.tags.length === 3 && i.faceCount! >= 1)).toBe(true);
  });

  it('returns rich items', () => {
    const [item] = q.page({ filter: { batchId }, limit: 1 }).items;
    expect(item).toMatchObject({
      status: 'done',
      tags: [
        { name: 'thing', confidence: 0.99 },
        { name: 'dog', confidence: 0.9 },
        { name: 't0', confidence: 0.2 },
      ],
      categories: [{ name: 'outdoor_', score: 0.7 }],
      dominantColors: expect.arrayContaining(['Black', 'White']) as unknown,
      isBW: true,
      reused: false,
      metadata: { note: '+SUM(A1)' },
    });
  });

  it('counts facets for the current filter', () => {
    const f = q.facets({ batchId });
    expect(f.total).toBe(N + 7);
    expect(f.status).toEqual([
      { name: 'done', count: N },
      { name: 'failed', count: 7 },
    ]);
    expect(f.withFaces).toBe(expected((c) => c.faceCount! > 0).length);
    expect(f.bw).toBe(expected((c) => c.isBW === true).length);
    expect(f.clipArt).toBe(expected((c) => c.clipArtType! >= 2).length);
    expect(f.lineDrawing).toBe(expected((c) => c.lineDrawingType === 1).length);
    expect(f.tags.slice(0, 3)).toEqual([
      { name: 'thing', count: N },
      { name: 'cat', count: N / 2 },
      { name: 'dog', count: N / 2 },
    ]);
    expect(f.colors[0]).toEqual({ name: 'White', count: N });
    expect(f.categories).toEqual([
      { name: 'animal_', count: 200 },
      { name: 'outdoor_', count: 100 },
    ]);

    // The stored (trigger-maintained) counts and a live count agree.
    const liveAll = q.facets({ batchId, tagMinConfidence: 0.49999 });
    expect({ ...liveAll, tags: liveAll.tags.filter((t) => !/^t\d/.test(t.name)) }).toEqual({
      ...f,
      tags: f.tags.filter((t) => !/^t\d/.test(t.name)),
    });
    expect(q.facets({ batchId, status: ['failed'] })).toMatchObject({ total: 7, tags: [], colors: [], withFaces: 0 });
    expect(q.facets({ batchId, status: ['done', 'failed'] })).toEqual(f);

    const dogs = q.facets({ batchId, tags: ['dog'], isBW: true });
    const ids = expected((c, i) => i % 2 === 0 && c.isBW === true);
    expect(dogs.total).toBe(ids.length);
    expect(dogs.tags.find((t) => t.name === 'cat')).toBeUndefined();
    expect(dogs.colors).toEqual([
      { name: 'Black', count: ids.length },
      { name: 'White', count: ids.length },
    ]);
    expect(dogs.status).toEqual([{ name: 'done', count: ids.length }]);
  });

  it('uses indexes for the filters (no full scan of items)', () => {
    const plan = (sql: string, ...p: unknown[]): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...p) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
    expect(plan('SELECT count(*) FROM items i WHERE i.batch_id = ? AND i.status = ?', batchId, 'done')).toMatch(
      /USING COVERING INDEX items_batch_status/,
    );
    expect(plan(`SELECT name, count(*) FROM result_tags c WHERE c.batch_id = ? AND c.confidence >= 0.5 GROUP BY c.name`, batchId)).toMatch(
      /result_tags_batch_name/,
    );
    expect(
      plan(
        `SELECT count(*) FROM items i LEFT JOIN results r ON r.item_id = i.id WHERE i.batch_id = ? AND i.id IN (SELECT item_id FROM result_colors WHERE batch_id = ? AND name IN ('Red'))`,
        batchId,
        batchId,
      ),
    ).toMatch(/result_colors_batch_name/);
  });

  it('pages a large batch by id the same whichever way the page is found', () => {
    const big = seedBatch(db, 2600, 5);
    const ids = (where: string, params: unknown[], order: string, offset: number, limit: number): number[] =>
      db
        .prepare(
          `SELECT i.id FROM items i LEFT JOIN results r ON r.item_id = i.id WHERE i.batch_id = ? AND ${where} ORDER BY i.id ${order} LIMIT ? OFFSET ?`,
        )
        .pluck()
        .all(big, ...params, limit, offset) as number[];
    const cases: Array<[Omit<ResultFilter, 'batchId'>, string, unknown[]]> = [
      [{ minFaces: 1 }, 'r.face_count >= ?', [1]], // broad: the page is within the first ids
      [{ isBW: true, minClipArt: 3 }, 'r.is_bw = ? AND r.clip_art_type >= ?', [1, 3]], // sparse: full sort
      [{ minAdult: 0.9, maxRacy: 0.5 }, 'r.adult_score >= ? AND r.racy_score <= ?', [0.9, 0.5]],
      [{ status: ['failed'] }, "i.status = 'failed'", []],
      [{}, '1', []],
    ];
    for (const [filter, where, params] of cases) {
      for (const order of ['asc', 'desc'] as const) {
        for (const [offset, limit] of [
          [0, 50],
          [40, 7],
          [2590, 50],
          [0, 0],
        ] as const) {
          const page = q.page({ filter: { batchId: big, ...filter }, sort: 'id', order, offset, limit });
          const label = JSON.stringify({ filter, order, offset, limit });
          expect(
            page.items.map((i) => i.itemId),
            label,
          ).toEqual(ids(where, params, order, offset, limit));
          expect(page.items.every((i) => i.batchId === big && i.url.includes(`/${big}/`))).toBe(true);
        }
      }
    }
  });
});
