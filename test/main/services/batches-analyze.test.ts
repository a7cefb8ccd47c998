import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src-main/config';
import { localBatchProcessor } from '../../../src-main/services/batches-processor';
import { workerBatchProcessor } from '../../../src-main/services/batches-worker-pool';
import { createIntakeFetcher } from '../../../src-main/jobs';
import { intakeOptions } from '../../../src-main/intake';
import type { FetchedImage, ImageProcessor } from '../../../src-main/jobs';
import type { AnalyzeData } from '../../../src-main/shared/spec';
import { runPicscan } from '../../helpers/cli';
import { repoRoot } from '../../helpers/paths';
import { createTestDb } from '../../helpers/db';
import { enlargedJpeg } from '../../helpers/large-photos';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { ANALYZE_ALL, batchOptions, fixture, listOf, makeService, manifest, routeUniqueImages } from '../jobs/support';

// Batches on the real local models (analyze and detect), end to end through intake.
let server: FixtureServer;
let processor: ImageProcessor;
beforeAll(async () => {
  server = await startFixtureServer();
  for (const m of manifest) server.route(`/f/${m.file}`, { file: fixture(m.file) });
  processor = await localBatchProcessor(loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-ba-')) }, {}));
});
afterAll(async () => {
  await processor.close?.();
  await server.close();
});

describe('batches on the real models', () => {
  it('analyses every fixture with all features and stores browsable results', async () => {
    const service = makeService(createTestDb(), processor);
    const urls = manifest.map((m) => server.url(`/f/${m.file}`));
    const { batch } = await service.create(listOf(urls), batchOptions({ operation: ANALYZE_ALL }));
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ total: manifest.length, done: manifest.length, failed: 0 });
    const items = service.resultsPage({ filter: { batchId: batch.id }, limit: 100 }).items;
    for (const item of items) {
      const file = item.url.split('/').pop()!;
      expect(item.caption, file).toBeTruthy();
      expect(item.tags.length, file).toBeGreaterThan(0);
      expect(item.hasThumbnail).toBe(true);
      expect(item.faceCount, file).not.toBeNull();
    }
    const byFile = (f: string) => items.find((i) => i.url.endsWith(`/${f}`))!;
    expect(byFile('family_six_faces.jpg').faceCount).toBeGreaterThanOrEqual(3);
    expect(byFile('cameraman_bw.png').isBW).toBe(true);
    const withFaces = service
      .resultsPage({ filter: { batchId: batch.id, minFaces: 1 }, limit: 100 })
      .items.map((i) => i.url.split('/').pop());
    expect(withFaces).toContain('grace_hopper.jpg');
    const facets = service.facets({ batchId: batch.id });
    expect(facets.total).toBe(manifest.length);
    expect(facets.tags.length).toBeGreaterThan(0);
    expect(facets.bw).toBeGreaterThanOrEqual(1);
  });

  it('runs a detect batch: no faces is a stored spec result, not a failure', async () => {
    const service = makeService(createTestDb(), processor);
    const urls = ['grace_hopper.jpg', 'coffee_cup.jpg'].map((f) => server.url(`/f/${f}`));
    const { batch } = await service.create(
      listOf(urls),
      batchOptions({ operation: { kind: 'detect', minHeadScale: 0.015, selector: ['ROLL'] } }),
    );
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ done: 2, failed: 0 });
    const [hopper, cup] = service.resultsPage({ filter: { batchId: batch.id } }).items;
    expect(hopper!.faceCount).toBe(1);
    expect(service.result(hopper!.itemId).response).toMatchObject({ images: [{ status: 'Complete', faces: [{ face_id: 1 }] }] });
    expect(cup!.faceCount).toBe(0);
    expect(service.result(cup!.itemId).response).toEqual({ Errors: [{ Message: expect.any(String) as unknown, ErrCode: 5002 }] });
  });

  it('works from the CLI: picscan batch, batches --json, export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-ba-cli-'));
    const db = join(dir, 'p.db');
    const list = join(dir, 'list.txt');
    writeFileSync(
      list,
      [
        '# three images and a bad line',
        server.url('/f/cat_chelsea.jpg'),
        server.url('/f/colosseum.jpg'),
        server.url('/f/colosseum.jpg'),
        'ftp://example.com/nope.jpg', // refused at import (`nope` would be a file next to the list)
        '',
      ].join('\n'),
    );
    const env = { PICSCAN_DATA_DIR: dir };
    const run = await runPicscan(
      ['batch', list, '--db', db, '--features', 'tags,description,color', '--details', 'landmarks', '--name', 'cli', '--json'],
      { env, timeoutMs: 120_000 },
    );
    expect(run.stderr).toMatch(/Batch 1: 3 items from 4 lines \(1 duplicate collapsed, 1 invalid\)/);
    expect(run.code).toBe(1); // the invalid line is a failed item
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 1, name: 'cli', status: 'done', counts: { done: 2, failed: 1, total: 3 } });
    const list2 = await runPicscan(['batches', '--json', '--db', db], { env });
    expect(JSON.parse(list2.stdout)).toMatchObject([{ id: 1, name: 'cli', status: 'done', counts: { done: 2, failed: 1 } }]);
    const out = join(dir, 'out.ndjson');
    expect((await runPicscan(['export', '1', '--format', 'ndjson', '--out', out, '--status', 'done', '--db', db], { env })).code).toBe(0);
  });

  it('runs the models in a worker thread with the same results, and reports missing models', async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-bw-')) }, {});
    const worker = await workerBatchProcessor(config);
    const fetcher = createIntakeFetcher(intakeOptions('desktop'));
    const fetch = (file: string): Promise<FetchedImage> => fetcher.fetch(file, new AbortController().signal);
    try {
      const op = { kind: 'detect', minHeadScale: 0.015, selector: ['FRONTAL'] } as const;
      const inProcess = await processor.process(
        await fetch(fixture('grace_hopper.jpg')),
        { ...op, selector: [...op.selector] },
        new AbortController().signal,
      );
      const image = await fetch(fixture('grace_hopper.jpg'));
      const inWorker = await worker.process(image, { ...op, selector: [...op.selector] }, new AbortController().signal);
      expect(inWorker).toEqual(inProcess);
      // A 12 MP photo goes with the working copy its thumbnail was made from; the worker adopts it
      // and analyses as in-process, where the same copy is made on this thread.
      const large = join(mkdtempSync(join(tmpdir(), 'picscan-bw-')), 'family-12mp.jpg');
      writeFileSync(large, await enlargedJpeg('family_six_faces.jpg', 4032, 3024));
      const analyzed = async (p: ImageProcessor, img: FetchedImage): Promise<Omit<AnalyzeData, 'requestId'>> => {
        const r = await p.process(img, structuredClone(ANALYZE_ALL), new AbortController().signal);
        if (r.kind !== 'analyze') throw new Error(`expected an analyze result, got ${r.kind}`);
        const { requestId: _, ...data } = r.data;
        return data;
      };
      const largeInProcess = await analyzed(processor, await fetch(large));
      const largeImage = await fetch(large);
      expect(largeImage.thumbnail).toMatchObject({ width: 256, height: 192 });
      const largeInWorker = await analyzed(worker, largeImage);
      expect(largeInWorker).toEqual(largeInProcess);
      expect(largeInWorker).toMatchObject({ metadata: { width: 4032, height: 3024 }, faces: expect.any(Array) });
      expect(largeInWorker.faces!.length).toBeGreaterThanOrEqual(5);
    } finally {
      await worker.close?.();
      await fetcher.close?.();
    }
    const missing = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-bw-')), modelsDir: join(tmpdir(), 'no-models-here') }, {});
    await expect(workerBatchProcessor(missing)).rejects.toMatchObject({ code: 'model-missing' });
  });

  it('spreads analyses over a pool of workers (analysisWorkers 2) with the same results', async () => {
    const config = loadConfig(
      { dataDir: mkdtempSync(join(tmpdir(), 'picscan-bw-')), settings: { analysisWorkers: 2, analysisConcurrency: 2 } },
      {},
    );
    const pool = await workerBatchProcessor(config);
    const fetcher = createIntakeFetcher(intakeOptions('desktop'));
    try {
      const images = await Promise.all(
        ['obama_portrait.jpg', 'family_six_faces.jpg', 'tom_cruise.jpg'].map((f) =>
          fetcher.fetch(fixture(f), new AbortController().signal),
        ),
      );
      const op = (): { kind: 'detect'; minHeadScale: number; selector: ['FRONTAL'] } => ({
        kind: 'detect',
        minHeadScale: 0.05,
        selector: ['FRONTAL'],
      });
      const inProcess = [];
      for (const img of images) inProcess.push(await processor.process(img, op(), new AbortController().signal));
      const pooled = await Promise.all(images.map((img) => pool.process(img, op(), new AbortController().signal)));
      expect(pooled).toEqual(inProcess);
    } finally {
      await pool.close?.();
      await fetcher.close?.();
    }
    const missing = loadConfig(
      {
        dataDir: mkdtempSync(join(tmpdir(), 'picscan-bw-')),
        modelsDir: join(tmpdir(), 'no-models-here'),
        settings: { analysisWorkers: 2 },
      },
      {},
    );
    await expect(workerBatchProcessor(missing)).rejects.toMatchObject({ code: 'model-missing' });
  });

  // Two real processes with real models: generous on a shared, busy machine.
  // Ctrl-C, and SIGTERM as a service manager or `kill` sends it: both pause cleanly.
  for (const [signal, code, images] of [
    ['SIGINT', 130, 60],
    ['SIGTERM', 143, 24],
  ] as const) {
    it(`pauses on ${signal} (exit ${code}) and finishes with picscan resume`, { timeout: 180_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), `picscan-ba-${signal.toLowerCase()}-`));
      const db = join(dir, 'p.db');
      const list = join(dir, 'list.txt');
      const urls = await routeUniqueImages(server, images, `/${signal.toLowerCase()}`);
      writeFileSync(list, urls.join('\n'));
      const env = { ...process.env, PICSCAN_DATA_DIR: dir };
      const child = spawn(
        process.execPath,
        [join(repoRoot, 'bin', 'picscan.js'), 'batch', list, '--db', db, '--features', 'tags', '--details', '', '--progress-every', '1'],
        {
          cwd: repoRoot,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.on('data', () => {});
      const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      for (let i = 0; i < 600 && !/running: [1-9]/.test(stderr); i++) await new Promise((r) => setTimeout(r, 100));
      child.kill(signal);
      expect(await exited, stderr).toBe(code);
      expect(stderr).toMatch(/paused; continue with: picscan resume 1/);
      const listed = await runPicscan(['batches', '--json', '--db', db], { env });
      expect(JSON.parse(listed.stdout)).toMatchObject([{ id: 1, status: 'paused' }]);
      const resumed = await runPicscan(['resume', '1', '--db', db, '--json'], { env, timeoutMs: 180_000 });
      expect(resumed.code).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ status: 'done', counts: { done: images, failed: 0, total: images } });
    });
  }
});
