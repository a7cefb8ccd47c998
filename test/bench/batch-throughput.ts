// Batches end-to-end bench (docs/benchmarks.md, "Batches"): 1 000 fixture URLs from a loopback
// server through intake and the real analyze models (all features and details), measuring
// images/s, RSS over the run and event-loop lag p99 of this process (the one that hosts the UI
// bridge). A second run uses byte-unique copies so de-duplication cannot help: raw throughput.
// Run: npm run bench -- batch-throughput. The PICSCAN_* settings of the environment apply (e.g.
// PICSCAN_ANALYSIS_CONCURRENCY=1, PICSCAN_MODEL_THREADS=1 for the one-thread path). It measures
// the process `npm start` runs, with its launcher's allocator settings (bin/process-env.js);
// BENCH_MALLOC_DEFAULTS=1 measures the C library's defaults instead.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { loadConfig } from '../../src-main/config';
import { localBatchProcessor } from '../../src-main/services/batches-processor';
import { workerBatchProcessor } from '../../src-main/services/batches-worker-pool';
import { BatchService } from '../../src-main/services/batches.service';
import type { ImageProcessor } from '../../src-main/jobs';
import { migrate, openDatabase } from '../../src-main/store';
import { launchEnv } from '../../bin/process-env.js';
import { startFixtureServer } from '../helpers/http-server';
import { fixture, fixturesDir } from '../helpers/paths';
import { uniqueJpeg } from '../helpers/unique-jpeg';

// The allocator reads its settings when a process starts, so this script re-runs itself under them.
if (process.env.BENCH_MALLOC_DEFAULTS !== '1') {
  const env = launchEnv();
  if (env !== process.env) {
    const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
    process.exit(child.status ?? 1);
  }
}

const TOTAL = Number(process.env.BENCH_BATCH_IMAGES ?? 1000);
const UNIQUE = Number(process.env.BENCH_BATCH_UNIQUE ?? 200);
const dir = mkdtempSync(join(tmpdir(), 'picscan-bench-tp-'));
const files = (JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as Array<{ file: string }>).map((m) => m.file);
const mb = (b: number): number => Math.round(b / (1024 * 1024));

const config = loadConfig({ dataDir: dir }, process.env);
const server = await startFixtureServer();

async function run(label: string, urls: string[], processor: ImageProcessor): Promise<void> {
  const db = openDatabase(join(dir, `${label}.db`));
  migrate(db);
  // The processor outlives this run's service (which would close it), so hand over only process().
  const service = new BatchService({ db, config, processor: { process: (img, op, signal) => processor.process(img, op, signal) } });
  const { batch } = await service.create(Readable.from([urls.join('\n')]), {
    name: label,
    operation: {
      kind: 'analyze',
      features: ['Categories', 'Tags', 'Description', 'Faces', 'ImageType', 'Adult', 'Color'],
      details: ['Landmarks', 'Celebrities'],
    },
    backend: { kind: 'local' },
  });
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 250);
  lag.enable();
  const t0 = performance.now();
  const summary = await service.start(batch.id);
  const seconds = (performance.now() - t0) / 1000;
  lag.disable();
  clearInterval(sampler);
  const reused = (db.prepare('SELECT count(*) AS n FROM items WHERE reused_from IS NOT NULL').get() as { n: number }).n;
  const q = (f: number): number => mb(rss[Math.min(rss.length - 1, Math.floor(f * rss.length))] ?? 0);
  const rate = summary.counts.done / seconds;
  const p99 = lag.percentile(99) / 1e6;
  console.log(
    `${label}: ${summary.counts.done}/${summary.counts.total} done (${summary.counts.failed} failed, ${reused} reused) in ${seconds.toFixed(1)} s = ${rate.toFixed(1)} images/s; ` +
      `RSS at 25/50/75/100 %: ${q(0.25)}/${q(0.5)}/${q(0.75)}/${q(0.999)} MB, max ${mb(Math.max(...rss))} MB; event-loop lag p99 ${p99.toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`,
  );
  await service.close();
  db.close();
}

try {
  const urls: string[] = [];
  for (let i = 0; i < TOTAL; i++) {
    const file = files[i % files.length]!;
    server.route(`/d/${i}/${file}`, { file: fixture(file) });
    urls.push(server.url(`/d/${i}/${file}`));
  }
  const jpegs = files.filter((f) => f.endsWith('.jpg'));
  const unique: string[] = [];
  for (let i = 0; i < UNIQUE; i++) {
    const file = jpegs[i % jpegs.length]!;
    server.route(`/u/${i}/${file}`, { body: uniqueJpeg(readFileSync(fixture(file)), i) });
    unique.push(server.url(`/u/${i}/${file}`));
  }
  console.log(
    `load average before: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(
        ' ',
      )} on ${availableParallelism()} cores; analysisConcurrency ${config.analysisConcurrency}, modelThreads ${config.modelThreads}; MALLOC_ARENA_MAX ${process.env.MALLOC_ARENA_MAX ?? 'unset'}`,
  );
  // The worker-thread processor is what the CLI and the UI host use; the in-process one shows why.
  const worker = await workerBatchProcessor(config);
  await run(`worker: ${TOTAL} fixture URLs (de-duplicated)`, urls, worker);
  await run(`worker: ${UNIQUE} byte-unique JPEGs`, unique, worker);
  await worker.close?.();
  const inProcess = await localBatchProcessor(config, { branchWorker: false });
  await run(`in-process: ${UNIQUE} byte-unique JPEGs`, unique, inProcess);
  await inProcess.close?.();
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} [targets: ≥ 8 images/s, RSS flat and ≤ 800 MB, lag p99 ≤ 50 ms]`,
  );
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
