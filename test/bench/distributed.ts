// Distributed batches bench (docs/distributed.md, docs/benchmarks.md "Distributed"): a real
// redis-server on loopback, persistence off.
//   1. Coordinator ingest: two in-process stand-in workers (the real worker host over BullMQ)
//      that return a stored result at once, so only Redis, BullMQ and the coordinator's SQLite
//      writes are measured: results/s and Redis commands per image.
//   2. Real throughput: byte-unique fixture JPEGs through 1, then 2 `picscan worker` processes
//      with the real models, images/s end to end.
// Run: npm run bench -- distributed   (BENCH_DIST_INGEST=2000, BENCH_DIST_IMAGES=60)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../../src-main/config';
import { silentLogger } from '../../src-main/core';
import type { FetchedImage, ProcessedImage } from '../../src-main/jobs';
import { createBackend } from '../../src-main/app';
import { unavailableProcessor } from '../../src-main/services/batches-processor';
import { modelSetOf, parseRedisUrl, startWorker, type WorkerHost } from '../../src-main/services/distributed';
import { startFixtureServer } from '../helpers/http-server';
import { fixture } from '../helpers/paths';
import { startRedis } from '../helpers/redis';
import { startWorkerChild } from '../main/services/distributed/support';

const INGEST = Number(process.env.BENCH_DIST_INGEST ?? 2000);
const IMAGES = Number(process.env.BENCH_DIST_IMAGES ?? 60);
const dir = mkdtempSync(join(tmpdir(), 'picscan-bench-dist-'));
const redis = await startRedis();
const config = loadConfig({ dataDir: dir }, {});
const modelSet = modelSetOf(config.modelsDir);
const operation = {
  kind: 'analyze' as const,
  features: ['Categories', 'Tags', 'Description', 'Faces', 'ImageType', 'Adult', 'Color'] as const,
  details: [] as const,
};
console.log(
  `machine: ${availableParallelism()} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

/** Total Redis commands executed so far (INFO commandstats). */
function redisCalls(): number {
  let n = 0;
  for (const m of redis.cli('INFO', 'commandstats').matchAll(/calls=(\d+)/g)) n += Number(m[1]);
  return n;
}

async function runBatch(name: string, urls: string[], queueKey: string): Promise<{ seconds: number; done: number }> {
  const backend = createBackend(loadConfig({ dataDir: dir, dbPath: join(dir, `${name}.db`) }, {}), {
    batches: { processor: unavailableProcessor, distributed: { modelSet, redisUrl: redis.url } },
  });
  const open = { service: backend.batches(), close: () => backend.close() };
  const { batch } = await open.service.create(Readable.from([urls.join('\n')]), {
    name,
    operation: { ...operation, features: [...operation.features], details: [] },
    backend: { kind: 'distributed', redisUrl: redis.url, queueKey },
  });
  const t0 = performance.now();
  const summary = await open.service.start(batch.id);
  const seconds = (performance.now() - t0) / 1000;
  await open.close();
  return { seconds, done: summary.counts.done };
}

try {
  // 1. Ingest with stand-in workers: a stored analyze result, each URL its own sha256.
  const stored = JSON.parse(readFileSync(join(import.meta.dirname, 'distributed-stored-result.json'), 'utf8')) as ProcessedImage;
  const thumb = { data: new Uint8Array(2048), width: 160, height: 120, mimeType: 'image/webp' as const };
  const standIns: WorkerHost[] = [];
  for (let w = 0; w < 2; w++) {
    standIns.push(
      await startWorker({
        redis: parseRedisUrl(redis.url),
        modelSet,
        name: `stand-in-${w}`,
        version: config.version,
        concurrency: 16,
        logger: silentLogger,
        processor: { process: async () => stored },
        fetcher: {
          fetch: async (url) =>
            ({
              sha256: Buffer.from(url).toString('hex').padEnd(64, '0').slice(-64),
              metadata: { width: 640, height: 480, format: 'Jpeg' },
              thumbnail: thumb,
            }) as unknown as FetchedImage,
        },
      }),
    );
  }
  const ingestUrls = Array.from({ length: INGEST }, (_, i) => `https://images.invalid/${i}.jpg`);
  const calls0 = redisCalls();
  const ingest = await runBatch('ingest', ingestUrls, 'benchingest');
  const calls = redisCalls() - calls0;
  console.log(
    `ingest (2 stand-in workers x16, SQLite writes included): ${ingest.done}/${INGEST} in ${ingest.seconds.toFixed(1)} s = ${(ingest.done / ingest.seconds).toFixed(0)} results/s; Redis commands per image ${(calls / INGEST).toFixed(1)}`,
  );
  await Promise.all(standIns.map((s) => s.close(1000)));

  // 2. Real models, byte-unique images, 1 then 2 worker processes.
  const server = await startFixtureServer();
  const jpegs = ['cat_chelsea.jpg', 'coffee_cup.jpg', 'rocket_launchpad.jpg', 'grace_hopper.jpg', 'obama_portrait.jpg', 'colosseum.jpg'];
  const unique = (run: string): string[] =>
    Array.from({ length: IMAGES }, (_, i) => {
      const bytes = readFileSync(fixture(jpegs[i % jpegs.length]!));
      const text = Buffer.from(`picscan bench ${run} ${i}`);
      const com = Buffer.alloc(4);
      com.writeUInt16BE(0xfffe, 0);
      com.writeUInt16BE(text.length + 2, 2);
      server.route(`/${run}/${i}.jpg`, {
        body: Buffer.concat([bytes.subarray(0, 2), com, text, bytes.subarray(2)]),
        headers: { 'content-type': 'image/jpeg' },
      });
      return server.url(`/${run}/${i}.jpg`);
    });
  for (const workers of [1, 2]) {
    const kids = Array.from({ length: workers }, (_, i) => startWorkerChild(redis.url, `bench-${workers}-${i}`));
    await Promise.all(kids.map((k) => k.waitFor(/ready/)));
    await new Promise((r) => setTimeout(r, 2000)); // let the models warm up
    const r = await runBatch(`real-${workers}`, unique(`w${workers}`), `benchreal${workers}`);
    console.log(
      `real models, ${workers} worker process${workers === 1 ? '' : 'es'} (concurrency 2 each): ${r.done}/${IMAGES} in ${r.seconds.toFixed(1)} s = ${(r.done / r.seconds).toFixed(2)} images/s`,
    );
    await Promise.all(kids.map((k) => k.kill('SIGTERM')));
  }
  await server.close();
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
