import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFilter, migrate, openDatabase, ResultsQuery, ResultsRepo, type Db } from '../../../src-main/store';
import { byCodePoint, FacetIndex, facetIndex } from '../../../src-main/store/facet-index';
import { tagThreshold } from '../../../src-main/store/result-filter';
import type { Facets, FacetCount, ResultFilter } from '../../../src-main/shared/batch';
import { addResults, columnsFor, seedBatch } from './seed';

const dir = mkdtempSync(join(tmpdir(), 'picscan-facets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileDb(name: string): Db {
  const db = openDatabase(join(dir, name));
  migrate(db);
  return db;
}

/** The facets of a filter, counted the straightforward way: GROUP BY over the matching ids. */
function reference(db: Db, filter: ResultFilter): Facets {
  const f = buildFilter(filter);
  const m = `SELECT i.id FROM items i LEFT JOIN results r ON r.item_id = i.id WHERE ${f.where}`;
  const top = (table: string, extra = '', ...p: unknown[]): FacetCount[] =>
    db
      .prepare(
        `SELECT name, count(*) AS count FROM ${table} WHERE item_id IN (${m}) ${extra} GROUP BY name ORDER BY count DESC, name LIMIT 20`,
      )
      .all(...f.params, ...p) as FacetCount[];
  const flags = db
    .prepare(
      `SELECT coalesce(sum(face_count > 0), 0) AS withFaces, coalesce(sum(is_bw = 1), 0) AS bw,
         coalesce(sum(clip_art_type >= 2), 0) AS clipArt, coalesce(sum(line_drawing_type = 1), 0) AS lineDrawing
       FROM results WHERE item_id IN (${m})`,
    )
    .get(...f.params) as Pick<Facets, 'withFaces' | 'bw' | 'clipArt' | 'lineDrawing'>;
  const status = db
    .prepare(`SELECT status AS name, count(*) AS count FROM items WHERE id IN (${m}) GROUP BY status ORDER BY count DESC, name`)
    .all(...f.params) as FacetCount[];
  return {
    total: status.reduce((n, s) => n + s.count, 0),
    status,
    ...flags,
    tags: top('result_tags', 'AND confidence >= ?', tagThreshold(filter)),
    categories: top('result_categories'),
    colors: top('result_colors'),
  };
}

const filters = (batchId: number): ResultFilter[] => [
  { batchId, minFaces: 1 }, // broad: three quarters of the batch
  { batchId, minAdult: 0.5 }, // broad: half
  { batchId, tagMinConfidence: 0.3 }, // whole batch at another tag threshold
  { batchId, status: ['done', 'failed'], tagMinConfidence: 0.75 },
  { batchId, status: ['failed'], tagMinConfidence: 0.2 },
  { batchId, tags: ['dog'] },
  { batchId, tags: ['cat', 't3'], tagMinConfidence: 0.45 },
  { batchId, colors: ['Red', 'Blue'], isBW: false },
  { batchId, categories: ['outdoor_'], minClipArt: 2 },
  { batchId, captionText: 'dog on' },
  { batchId, celebrity: 'grace hopper' },
  { batchId, minFaces: 9 }, // no match
];

/** A query that always counts with the facet index (no SQL shortcut for small match counts). */
const indexed = (db: Db): ResultsQuery => new ResultsQuery(db, { sqlFacetsUntil: 0 });

function expectSameAsSql(db: Db, batchId: number): void {
  for (const filter of filters(batchId)) expect(indexed(db).facets(filter), JSON.stringify(filter)).toEqual(reference(db, filter));
}

describe('facet index', () => {
  it('counts exactly what a GROUP BY over the matching items counts, for broad and narrow filters', () => {
    const db = fileDb('exact.db');
    const other = seedBatch(db, 40, 2);
    const batchId = seedBatch(db, 300, 7);
    expectSameAsSql(db, batchId);
    expectSameAsSql(db, other);
    expect(facetIndex(db).stats.loads).toBe(2);
    // The SQL shortcut used before the index is loaded gives the same answers.
    const db2 = openDatabase(join(dir, 'exact.db'));
    for (const filter of filters(batchId)) expect(new ResultsQuery(db2).facets(filter)).toEqual(reference(db2, filter));
    expect(facetIndex(db2).stats.loads).toBe(0);
    db2.close();
    db.close();
  });

  it('keeps two batches, fewer when they would exceed its memory budget', () => {
    const db = fileDb('budget.db');
    const [a, b] = [seedBatch(db, 50, 11), seedBatch(db, 50, 12)];
    const ids = (batchId: number): number[] =>
      db.prepare('SELECT item_id FROM results WHERE batch_id = ?').pluck().all(batchId) as number[];
    const roomy = new FacetIndex(db);
    for (const batchId of [a, b, a]) roomy.count(batchId, ids(batchId), 0.5, 20);
    expect(roomy.stats.loads).toBe(2); // a is still held when it comes back
    const tight = new FacetIndex(db, { maxBytes: 1 });
    for (const batchId of [a, b, a]) tight.count(batchId, ids(batchId), 0.5, 20);
    expect(tight.stats.loads).toBe(3); // b pushed a out
    expect(tight.bytes()).toBeGreaterThan(1); // the batch in use is kept whatever its size
    db.close();
  });

  it('stays exact while results are added, replaced and deleted, applying only the changes', () => {
    const db = fileDb('changes.db');
    const batchId = seedBatch(db, 200, 3);
    expectSameAsSql(db, batchId);
    const ix = facetIndex(db);
    expect(ix.stats).toEqual({ loads: 1, refreshes: 0 });

    // A running batch: more results arrive (new items, higher ids), some items fail.
    const added = addResults(db, batchId, 1000, 60, 4);
    expectSameAsSql(db, batchId);
    expect(ix.stats).toEqual({ loads: 1, refreshes: 1 });

    // Re-analysis swaps results in one transaction (BatchService.reanalyze uses ResultsRepo.replace).
    const results = new ResultsRepo(db);
    const done = db
      .prepare(`SELECT id FROM items WHERE batch_id = ? AND status = 'done' ORDER BY id LIMIT 3`)
      .pluck()
      .all(batchId) as number[];
    for (const [k, itemId] of [...done, added[5]!].entries()) {
      const swapped = results.replace({
        itemId,
        batchId,
        sha256: `re-${itemId}`,
        opKey: 'k',
        response: {},
        columns: { ...columnsFor(7 + k), tags: [{ name: `fresh${k % 2}`, confidence: 0.8 }], colors: ['Pink'] },
        thumbnail: null,
        analyzeMs: 0,
      });
      expect(swapped).toBe(true);
    }
    expectSameAsSql(db, batchId);
    expect(indexed(db).facets({ batchId, colors: ['Pink'] }).total).toBe(4);

    // A page then the facets of one filter share the match query, unless the data changed between.
    const q = indexed(db);
    const broad: ResultFilter = { batchId, minFaces: 1 };
    expect(q.page({ filter: broad }).total).toBe(reference(db, broad).total);
    addResults(db, batchId, 3000, 5);
    expect(q.facets(broad)).toEqual(reference(db, broad));
    expect(q.page({ filter: broad }).total).toBe(reference(db, broad).total);

    // Deleted items and a result deleted on its own.
    db.prepare('DELETE FROM items WHERE batch_id = ? AND id % 7 = 0').run(batchId);
    db.prepare(`UPDATE items SET status = 'analyzing' WHERE id = ?`).run(done[1]);
    db.prepare('DELETE FROM results WHERE item_id = ?').run(done[1]);
    expectSameAsSql(db, batchId);
    expect(ix.stats.loads).toBe(1);
    db.close();
  });

  it('sees writes made through another connection to the same file', () => {
    const reader = fileDb('shared.db');
    const writer = openDatabase(join(dir, 'shared.db'));
    const batchId = seedBatch(writer, 100, 2);
    expectSameAsSql(reader, batchId);
    addResults(writer, batchId, 500, 30);
    writer.prepare('DELETE FROM items WHERE batch_id = ? AND id % 5 = 1').run(batchId);
    expectSameAsSql(reader, batchId);
    expect(facetIndex(reader).stats).toEqual({ loads: 1, refreshes: 1 });
    writer.close();
    reader.close();
  });

  it('starts over for a deleted batch and for a new batch that got the same id', () => {
    const db = fileDb('reuse.db');
    const first = seedBatch(db, 50);
    expectSameAsSql(db, first);
    db.prepare('DELETE FROM batches WHERE id = ?').run(first);
    expect(indexed(db).facets({ batchId: first, minFaces: 1 })).toMatchObject({ total: 0, tags: [], withFaces: 0 });
    // Before migration 9 SQLite gave the highest id again once its row was gone; a database an
    // older picscan wrote may hold such a batch, so the index must still start over for it.
    db.prepare('UPDATE batch_id_high SET last = ?').run(first - 1);
    const second = seedBatch(db, 30);
    expect(second).toBe(first);
    expectSameAsSql(db, second);
    db.close();
  });

  it('does not learn changes from inside a transaction that is then rolled back', () => {
    const db = fileDb('rollback.db');
    const batchId = seedBatch(db, 80);
    expectSameAsSql(db, batchId);
    const broad: ResultFilter = { batchId, minFaces: 1 };
    expect(() =>
      db.transaction(() => {
        addResults(db, batchId, 900, 4);
        expect(indexed(db).facets(broad)).toEqual(reference(db, broad));
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    addResults(db, batchId, 2000, 10); // reuses the rolled-back rows' sequence numbers, and more
    expectSameAsSql(db, batchId);
    db.close();
  });

  it('orders tied names like SQLite (code points, not UTF-16 units)', () => {
    const db = openDatabase(':memory:');
    const names = ['z', 'é', '\u{1F600}', '\uFFFD', 'Z', 'a', 'ab', '', '\uE000'];
    const sqlite = db.prepare(`SELECT value FROM json_each(?) ORDER BY value`).pluck().all(JSON.stringify(names));
    expect([...names].sort(byCodePoint)).toEqual(sqlite);
    db.close();
  });
});
