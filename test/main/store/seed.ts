import { BatchesRepo, ItemsRepo, migrate, openDatabase, ResultsRepo, type Db, type ResultColumns } from '../../../src-main/store';
import { ANALYZE_ALL } from '../jobs/support';

/** A synthetic result for query and export tests; `i` varies every field. */
export function columnsFor(i: number): ResultColumns {
  const colors = ['Black', 'White', 'Red', 'Blue', 'Green'];
  return {
    width: 100 + i,
    height: 50 + i,
    format: i % 2 ? 'Png' : 'Jpeg',
    caption: i % 10 === 0 ? `=cmd a dog on a beach ${i}` : `a cat number ${i}`,
    captionConfidence: 0.5,
    faceCount: i % 4,
    adultScore: (i % 100) / 100,
    racyScore: ((i * 7) % 100) / 100,
    isBW: i % 5 === 0,
    clipArtType: i % 4,
    lineDrawingType: i % 6 === 0 ? 1 : 0,
    accentColor: 'A0B0C0',
    dominantForeground: colors[i % 5]!,
    dominantBackground: 'White',
    tags: [
      { name: 'thing', confidence: 0.99 },
      { name: i % 2 ? 'cat' : 'dog', confidence: 0.9 },
      { name: `t${i % 30}`, confidence: 0.2 + (i % 8) / 10 },
    ],
    categories: [{ name: i % 3 ? 'animal_' : 'outdoor_', score: 0.7 }],
    colors: [colors[i % 5]!, 'White'].filter((c, k, a) => a.indexOf(c) === k),
    names:
      i % 50 === 0
        ? [{ kind: 'celebrity', name: 'Grace Hopper', confidence: 0.9 }]
        : i % 70 === 1
          ? [{ kind: 'landmark', name: 'Colosseum', confidence: 0.8 }]
          : [],
  };
}

/** Inserts a batch of `n` done items (plus `failed` failed ones) with synthetic results, in one transaction. */
export function seedBatch(db: Db, n: number, failed = 0): number {
  const batchId = new BatchesRepo(db).insert({ name: 'seeded', operation: ANALYZE_ALL, backend: { kind: 'local' } });
  const items = new ItemsRepo(db);
  const results = new ResultsRepo(db);
  db.transaction(() => {
    items.insertMany(
      batchId,
      Array.from({ length: n + failed }, (_, i) => ({
        line: i + 1,
        url: `http://img.test/${batchId}/${i}.jpg`,
        metadata: i === 0 ? { note: '+SUM(A1)' } : null,
        error: i >= n ? { code: 'image-fetch-failed' as const, message: `Could not fetch ${i}` } : null,
      })),
    );
    const ids = db
      .prepare<[number], { id: number; line: number }>(`SELECT id, line FROM items WHERE batch_id = ? AND status = 'queued' ORDER BY id`)
      .all(batchId);
    for (const { id, line } of ids) {
      const i = line - 1;
      items.markFetching(id);
      const columns = columnsFor(i);
      results.complete({
        itemId: id,
        batchId,
        sha256: `sha-${batchId}-${i}`,
        opKey: 'k',
        response: {
          requestId: String(i),
          metadata: { width: columns.width, height: columns.height, format: columns.format },
          faces: Array.from({ length: columns.faceCount! }, (_, k) => ({ age: 20 + k, gender: k % 2 ? 'Male' : 'Female' })),
        },
        columns,
        thumbnail: null,
        analyzeMs: 1,
      });
    }
  })();
  new BatchesRepo(db).markImported(batchId); // a whole list, as an import that finished leaves it
  return batchId;
}

/**
 * Adds `n` items with results (plus `failed` failed items) to an existing batch, one write each as a
 * running batch stores them; returns the ids given results.
 */
export function addResults(db: Db, batchId: number, from: number, n: number, failed = 0): number[] {
  const items = new ItemsRepo(db);
  const results = new ResultsRepo(db);
  items.insertMany(
    batchId,
    Array.from({ length: n + failed }, (_, k) => ({
      line: from + k,
      url: `http://more.test/${batchId}/${from + k}`,
      metadata: null,
      error: k >= n ? { code: 'image-fetch-failed' as const, message: 'x' } : null,
    })),
  );
  const ids: number[] = [];
  for (const w of items.nextQueued(batchId, 0, n)) {
    items.markFetching(w.id);
    results.complete({
      itemId: w.id,
      batchId,
      sha256: `more-${w.id}`,
      opKey: 'k',
      response: {},
      columns: columnsFor(from + w.id),
      thumbnail: null,
      analyzeMs: 0,
    });
    ids.push(w.id);
  }
  return ids;
}

/** A migrated database file at `path` holding one seeded batch (see seedBatch); returns its id. */
export function seedDatabaseFile(path: string, n: number, failed = 0): number {
  const db = openDatabase(path);
  try {
    migrate(db);
    return seedBatch(db, n, failed);
  } finally {
    db.close();
  }
}
