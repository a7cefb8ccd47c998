// Batches bench (docs/benchmarks.md, "Batches"): import of a 1 000 000-line URL list, and a
// filtered page + facets over 100 000 stored results. Run: npm run bench -- batch
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src-main/config';
import { BatchService, unavailableProcessor } from '../../src-main/services/batches';
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

function seedResults(db: Db, n: number): number {
  let seed = 42;
  const rnd = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const batchId = new BatchesRepo(db).insert({
    name: 'bench',
    operation: { kind: 'analyze', features: ['Tags'], details: [] },
    backend: { kind: 'local' },
  });
  const items = new ItemsRepo(db);
  const results = new ResultsRepo(db);
  const CHUNK = 5000;
  for (let start = 0; start < n; start += CHUNK) {
    db.transaction(() => {
      items.insertMany(
        batchId,
        Array.from({ length: Math.min(CHUNK, n - start) }, (_, k) => ({
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
  db.exec('ANALYZE');
  return batchId;
}

function benchQueries(): void {
  const db = freshDb('query.db');
  // Setup only: the seeded file is thrown away, so skip fsyncs while filling it.
  db.pragma('synchronous = OFF');
  const t0 = performance.now();
  const batchId = seedResults(db, RESULTS);
  console.log(`seeded ${RESULTS.toLocaleString('en')} items with results in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
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
  ];
  let worstTypical = 0;
  for (const [label, filter] of scenarios) {
    const wall: number[] = [];
    const cpu: number[] = [];
    let total = 0;
    for (let r = 0; r < 7; r++) {
      // A fresh query object each time: no statement or facet cache carries over (cold figures).
      const query = new ResultsQuery(db);
      const c0 = process.cpuUsage();
      const t = performance.now();
      const page = query.page({ filter, sort: r % 2 ? 'adult' : 'id', offset: 0, limit: 50 });
      query.facets(filter);
      wall.push(performance.now() - t);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      total = page.total;
    }
    wall.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    if (!label.includes('broad')) worstTypical = Math.max(worstTypical, wall[3]!);
    console.log(
      `page+facets ${label.padEnd(26)} wall ${wall[3]!.toFixed(1).padStart(6)} ms median (max ${wall[6]!.toFixed(1).padStart(6)}), CPU ${cpu[3]!.toFixed(1).padStart(6)} ms  — ${total} matches`,
    );
  }
  console.log(
    `worst median over the typical filters: ${worstTypical.toFixed(1)} ms [target ≤ 100 ms] ${worstTypical <= 100 ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `load average during the run: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (on ${availableParallelism()} cores; wall times inflate under load, CPU times do not)`,
  );
  db.close();
}

try {
  await benchImport();
  benchQueries();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
