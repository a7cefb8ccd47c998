import { BatchesRepo, ItemsRepo, migrate, openDatabase, ResultsRepo, type NewItem } from '../../../src-main/store';
import { COLOR_NAMES } from '../../../src-main/shared';

/** 60 tag names; item i gets five of them, so each tag covers about 1/12 of the items. */
export const SEED_TAGS = Array.from({ length: 60 }, (_, i) => `tag${String(i).padStart(2, '0')}`);
const CATEGORIES = ['people_', 'animal_', 'outdoor_', 'indoor_', 'food_', 'building_', 'others_', 'text_', 'sky_', 'plant_'];

/**
 * Writes a finished batch of `count` analysed items straight through the store (no network, no
 * models), for the results-view benchmark. Deterministic: item i has face count i % 4, B&W every
 * 10th, clip art every 7th, five tags and one category.
 */
export function seedResults(dbPath: string, count: number): { batchId: number } {
  const db = openDatabase(dbPath);
  migrate(db);
  const batches = new BatchesRepo(db);
  const items = new ItemsRepo(db);
  const results = new ResultsRepo(db);
  const batchId = batches.insert({
    name: `Seeded ${count.toLocaleString('en')} results`,
    operation: { kind: 'analyze', features: ['Tags', 'Categories', 'Faces', 'Color', 'ImageType', 'Adult', 'Description'], details: [] },
    backend: { kind: 'local' },
  });
  const rows: NewItem[] = Array.from({ length: count }, (_, i) => ({
    line: i + 1,
    url: `https://images.example/seed/${i}.jpg`,
    metadata: null,
    error: null,
  }));
  db.transaction(() => {
    items.insertMany(batchId, rows);
    let i = 0;
    for (const item of items.nextQueued(batchId, 0, count)) {
      items.markFetching(item.id);
      const tags = [0, 1, 2, 3, 4].map((k) => ({ name: SEED_TAGS[(i * 7 + k * 13) % SEED_TAGS.length]!, confidence: 0.9 - k * 0.05 }));
      const faceCount = i % 4;
      const isBW = i % 10 === 0;
      const colors = isBW ? ['Black', 'White'] : [COLOR_NAMES[i % 12]!, COLOR_NAMES[(i + 5) % 12]!];
      results.complete({
        itemId: item.id,
        batchId,
        sha256: i.toString(16).padStart(64, '0'),
        opKey: 'seed',
        response: { requestId: 'seed', metadata: { width: 640, height: 480, format: 'Jpeg' } },
        columns: {
          width: 640,
          height: 480,
          format: 'Jpeg',
          caption: `seeded image number ${i}`,
          captionConfidence: 0.5,
          faceCount,
          adultScore: (i % 100) / 100,
          racyScore: ((i * 3) % 100) / 100,
          isBW,
          clipArtType: i % 7 === 0 ? 3 : 0,
          lineDrawingType: i % 11 === 0 ? 1 : 0,
          accentColor: '336699',
          dominantForeground: colors[0]!,
          dominantBackground: colors[1]!,
          tags,
          categories: [{ name: CATEGORIES[i % CATEGORIES.length]!, score: 0.7 }],
          colors,
          names: [],
        },
        thumbnail: null,
        analyzeMs: 1,
      });
      i++;
    }
    batches.finish(batchId, 'done');
    batches.markImported(batchId); // a whole list, as an import that finished leaves it
  })();
  db.close();
  return { batchId };
}
