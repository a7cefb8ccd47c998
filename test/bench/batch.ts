// Batches bench (docs/benchmarks.md, "Batches"): import of a 1 000 000-line URL list, and a
// filtered page + facets over 100 000 stored results. Run: npm run bench -- batch
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src-main/config';
import { unavailableProcessor } from '../../src-main/services/batches-processor';
import { BatchService } from '../../src-main/services/batches.service';
import type { ResultFilter } from '../../src-main/shared/batch';
import {
  BatchesRepo,
  ItemsRepo,
  ResultsQuery,
  ResultsRepo,
  migrate,
  openDatabase,
  type Db,
  type ResultColumns,
} from '../../src-main/store';
import { facetIndex } from '../../src-main/store/facet-index';

const LINES = Number(process.env.BENCH_LIST_LINES ?? 1_000_000);
const RESULTS = Number(process.env.BENCH_RESULTS ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'picscan-bench-batch-'));
const mb = (bytes: number): number => Math.round(bytes / (1024 * 1024));

function freshDb(name: string): Db {
  const db = openDatabase(join(dir, name));
  migrate(db);
  return db;
}

async function writeList(file: string, lines: number): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < lines; i++) {
    // ~1 % duplicates, ~0.1 % invalid lines, a comment every 10 000 lines: a realistic messy list.
    const line =
      i % 1000 === 999
        ? 'not a url'
        : i % 100 === 7
          ? `https://img.example.com/p/${i - 1}/photo.jpg`
          : `https://img.example.com/p/${i}/photo.jpg`;
    const text = i % 10_000 === 0 ? `# part ${i / 10_000}\n${line}\n` : `${line}\n`;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function benchImport(): Promise<void> {
  const list = join(dir, 'list.txt');
  await writeList(list, LINES);
  global.gc?.();
  const db = freshDb('import.db');
  const service = new BatchService({ db, config: loadConfig({ dataDir: dir }, {}), processor: unavailableProcessor });
  const baseRss = process.memoryUsage().rss;
  let peakRss = baseRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const t0 = performance.now();
  const report = await service.create(
    createReadStream(list),
    { name: 'bench', operation: { kind: 'analyze', features: ['Tags'], details: [] }, backend: { kind: 'local' } },
    'txt',
  );
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  console.log(
    `import ${LINES.toLocaleString('en')} lines: ${seconds.toFixed(1)} s (${Math.round(LINES / seconds).toLocaleString('en')} lines/s), ` +
      `peak RSS ${mb(peakRss)} MB (start ${mb(baseRss)} MB); items ${report.items}, duplicates ${report.duplicates}, invalid ${report.invalid}` +
      ` [target ≤ 60 s, ≤ 300 MB] ${seconds <= 60 && mb(peakRss) <= 300 ? 'PASS' : 'FAIL'}`,
  );
  await service.close();
  db.close();
}

const TAGS = Array.from({ length: 400 }, (_, i) => `tag${i}`);
const COLORS = ['Black', 'Blue', 'Brown', 'Gray', 'Green', 'Orange', 'Pink', 'Purple', 'Red', 'Teal', 'White', 'Yellow'];
const CATS = Array.from({ length: 86 }, (_, i) => `cat${i}_`);
const WORDS = [
  'a',
  'man',
  'woman',
  'dog',
  'cat',
  'sitting',
  'on',
  'beach',
  'street',
  'table',
  'with',
  'red',
  'car',
  'group',
  'of',
  'people',
];

/** Deterministic pseudo-random results resembling real analyze output (tags skewed to a head). */
function syntheticColumns(i: number, rnd: () => number): ResultColumns {
  const tagCount = 8 + Math.floor(rnd() * 8);
  const tags = new Map<string, number>();
  while (tags.size < tagCount) tags.set(TAGS[Math.floor(rnd() ** 2 * TAGS.length)]!, Math.round(rnd() * 1000) / 1000);
  const colors = new Set([COLORS[Math.floor(rnd() * 12)]!, COLORS[Math.floor(rnd() * 12)]!]);
  const caption = Array.from({ length: 6 }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
  return {
    width: 640,
    height: 480,
    format: 'Jpeg',
    caption: `${caption} ${i}`,
    captionConfidence: rnd(),
    faceCount: Math.floor(rnd() ** 3 * 6),
    adultScore: rnd() ** 4,
    racyScore: rnd() ** 3,
    isBW: rnd() < 0.1,
    clipArtType: Math.floor(rnd() ** 4 * 4),
    lineDrawingType: rnd() < 0.05 ? 1 : 0,
    accentColor: '336699',
    dominantForeground: [...colors][0]!,
    dominantBackground: 'White',
    tags: [...tags].map(([name, confidence]) => ({ name, confidence })),
    categories: [{ name: CATS[Math.floor(rnd() ** 2 * CATS.length)]!, score: rnd() }],
    colors: [...colors],
    names: rnd() < 0.01 ? [{ kind: 'celebrity', name: 'Grace Hopper', confidence: 0.9 }] : [],
  };
}

/** Adds `n` items to the batch, about 97 % of them done with a synthetic result and 3 % failed. */
function addResults(db: Db, batchId: number, n: number, rnd: () => number): void {
  const items = new ItemsRepo(db);
  const results = new ResultsRepo(db);
  const first = (db.prepare('SELECT count(*) AS n FROM items WHERE batch_id = ?').get(batchId) as { n: number }).n;
  const CHUNK = 5000;
  for (let start = first; start < first + n; start += CHUNK) {
    db.transaction(() => {
      items.insertMany(
        batchId,
        Array.from({ length: Math.min(CHUNK, first + n - start) }, (_, k) => ({
          line: start + k + 1,
          url: `https://img.example.com/${start + k}.jpg`,
          metadata: null,
          error: null,
        })),
      );
      for (const w of items.nextQueued(batchId, 0, CHUNK)) {
        items.markFetching(w.id);
        if (rnd() < 0.03) {
          items.markFailed(w.id, 'image-fetch-failed', 'HTTP 404');
          continue;
        }
        const columns = syntheticColumns(w.id, rnd);
        results.complete({
          itemId: w.id,
          batchId,
          sha256: `s${w.id}`,
          opKey: 'k',
          response: { requestId: String(w.id), tags: columns.tags },
          columns,
          thumbnail: null,
          analyzeMs: 1,
        });
      }
    })();
  }
}

function seededRandom(): () => number {
  let seed = 42;
  return (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

interface Timing {
  wall: number;
  cpu: number;
}

function timed<T>(fn: () => T): [T, Timing] {
  const c0 = process.cpuUsage();
  const t = performance.now();
  const value = fn();
  const wall = performance.now() - t;
  const c = process.cpuUsage(c0);
  return [value, { wall, cpu: (c.user + c.system) / 1000 }];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const ms = (x: number): string => x.toFixed(1).padStart(6);

function benchQueries(): void {
  const db = freshDb('query.db');
  // Setup only: the seeded file is thrown away, so skip fsyncs while filling it.
  db.pragma('synchronous = OFF');
  const t0 = performance.now();
  const rnd = seededRandom();
  const batchId = new BatchesRepo(db).insert({
    name: 'bench',
    operation: { kind: 'analyze', features: ['Tags'], details: [] },
    backend: { kind: 'local' },
  });
  addResults(db, batchId, RESULTS, rnd);
  db.exec('ANALYZE');
  console.log(`seeded ${RESULTS.toLocaleString('en')} items with results in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // The facet index is per connection and loads a batch on the first facet request that needs
  // it (more than 5 000 matches; fewer are counted in SQL until then): both first requests are
  // measured here, once. Every run below then uses a new query object (no statement cache, no
  // cached facet answers) with the connection's index loaded, as the UI sees it from then on.
  global.gc?.();
  const heap0 = process.memoryUsage();
  const [, first] = timed(() => new ResultsQuery(db).facets({ batchId, tags: ['tag3'] }));
  console.log(`first facet request, tag (4 105 matches, counted in SQL): wall ${ms(first.wall)} ms, CPU ${ms(first.cpu)} ms`);
  const [, load] = timed(() => new ResultsQuery(db).facets({ batchId, minFaces: 1 }));
  const heap1 = process.memoryUsage();
  const indexMb = facetIndex(db).bytes() / (1024 * 1024);
  const tagRows = (db.prepare('SELECT count(*) AS n FROM result_tags WHERE batch_id = ?').get(batchId) as { n: number }).n;
  console.log(
    `first broad facet request, faces ≥ 1 (loads the batch's index): wall ${ms(load.wall)} ms, CPU ${ms(load.cpu)} ms; ` +
      `index typed arrays ${indexMb.toFixed(1)} MB for ${tagRows.toLocaleString('en')} tag rows ` +
      `(heap + array buffers +${mb(heap1.heapUsed + heap1.arrayBuffers - heap0.heapUsed - heap0.arrayBuffers)} MB)`,
  );

  const scenarios: Array<[string, ResultFilter]> = [
    ['whole batch', { batchId }],
    ['status done', { batchId, status: ['done'] }],
    ['tag', { batchId, tags: ['tag3'] }],
    ['tag + colour + faces ≥ 1', { batchId, tags: ['tag3'], colors: ['Red'], minFaces: 1 }],
    ['B/W + clip art ≥ 2', { batchId, isBW: true, minClipArt: 2 }],
    ['caption "dog on"', { batchId, captionText: 'dog on' }],
    ['celebrity', { batchId, celebrity: 'Grace Hopper' }],
    ['adult ≥ 0.5 (broad)', { batchId, minAdult: 0.5 }],
    ['faces ≥ 1 (broad)', { batchId, minFaces: 1 }],
    ['tag ≥ 0.3, whole batch', { batchId, tagMinConfidence: 0.3 }],
  ];
  let worst = 0;
  const run = (label: string, filter: ResultFilter, runs = 7): void => {
    const wall: number[] = [];
    const cpu: number[] = [];
    const pageCpu: number[] = [];
    const facetCpu: number[] = [];
    let total = 0;
    for (let r = 0; r < runs; r++) {
      // A fresh query object each time: no statement or facet cache carries over (cold figures).
      const query = new ResultsQuery(db);
      const [page, p] = timed(() => query.page({ filter, sort: r % 2 ? 'adult' : 'id', offset: 0, limit: 50 }));
      const [, f] = timed(() => query.facets(filter));
      wall.push(p.wall + f.wall);
      cpu.push(p.cpu + f.cpu);
      pageCpu.push(p.cpu);
      facetCpu.push(f.cpu);
      total = page.total;
    }
    worst = Math.max(worst, median(wall));
    console.log(
      `page+facets ${label.padEnd(26)} wall ${ms(median(wall))} ms median (max ${ms(Math.max(...wall))}), CPU ${ms(median(cpu))} ms ` +
        `(page ${ms(median(pageCpu))}, facets ${ms(median(facetCpu))})  — ${total} matches`,
    );
  };
  for (const [label, filter] of scenarios) run(label, filter);
  console.log(`worst median over all filters: ${worst.toFixed(1)} ms [target ≤ 100 ms] ${worst <= 100 ? 'PASS' : 'FAIL'}`);

  // A running batch: results keep arriving between two facet requests of the UI; the index
  // applies just those (result_changes), then a re-analysis replaces one result.
  for (const n of [100, 2000]) {
    addResults(db, batchId, n, rnd);
    const [, t] = timed(() => new ResultsQuery(db).facets({ batchId, minFaces: 1 }));
    console.log(`facets faces ≥ 1 right after ${n} more results (incremental index update): wall ${ms(t.wall)} ms, CPU ${ms(t.cpu)} ms`);
  }
  const some = db.prepare(`SELECT item_id FROM results WHERE batch_id = ? LIMIT 1`).get(batchId) as { item_id: number };
  db.prepare(`UPDATE items SET status = 'analyzing' WHERE id = ?`).run(some.item_id);
  db.prepare('DELETE FROM results WHERE item_id = ?').run(some.item_id);
  const [, t] = timed(() => new ResultsQuery(db).facets({ batchId, minFaces: 1 }));
  console.log(`facets faces ≥ 1 right after a result was deleted: wall ${ms(t.wall)} ms, CPU ${ms(t.cpu)} ms`);
  console.log(
    `load average during the run: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (on ${availableParallelism()} cores; wall times inflate under load, CPU times do not)`,
  );
  db.close();
}

try {
  if (LINES > 0) await benchImport();
  benchQueries();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
