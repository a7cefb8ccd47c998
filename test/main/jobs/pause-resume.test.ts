import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { createTestDb } from '../../helpers/db';
import { batchOptions, fakeProcessor, listOf, makeService, routeUniqueImages } from './support';

let server: FixtureServer;
const N = 60;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

describe('pause, resume and cancel', () => {
  it('pauses with nothing left mid-way, then resumes to the end analysing each item once', async () => {
    const urls = await routeUniqueImages(server, N);
    const db = createTestDb();
    const processor = fakeProcessor({ delayMs: 15 });
    const service = makeService(db, processor);
    const { batch } = await service.create(listOf(urls), batchOptions());
    const run = service.start(batch.id);
    await new Promise<void>((resolve) => {
      const off = service.onProgress((p) => p.counts.done >= 10 && (off(), resolve()));
    });
    const paused = await service.pause(batch.id);
    expect(await run).toEqual(paused);
    expect(paused.status).toBe('paused');
    expect(paused.counts.running).toBe(0);
    expect(paused.counts.done).toBeGreaterThanOrEqual(10);
    expect(paused.counts.done).toBeLessThan(N);
    expect(service.progress(batch.id).status).toBe('paused');

    const resumed = await service.resume(batch.id);
    expect(resumed.status).toBe('done');
    expect(resumed.counts).toMatchObject({ done: N, queued: 0, running: 0, failed: 0 });
    expect(processor.calls.length).toBe(new Set(processor.calls).size); // none analysed twice
    expect(db.prepare('SELECT count(*) AS n FROM results').get()).toEqual({ n: N });
  });

  it('cancels: unfinished items become skipped and the batch cannot be resumed', async () => {
    const urls = await routeUniqueImages(server, 40, '/c');
    const service = makeService(createTestDb(), fakeProcessor({ delayMs: 20 }));
    const { batch } = await service.create(listOf(urls), batchOptions({ analysisConcurrency: 1 }));
    const run = service.start(batch.id);
    await new Promise((r) => setTimeout(r, 100));
    const cancelled = await service.cancel(batch.id);
    await run;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.counts.skipped).toBeGreaterThan(0);
    expect(cancelled.counts.done + cancelled.counts.skipped).toBe(40);
    await expect(service.start(batch.id)).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('deletes a batch with everything it owns', async () => {
    const urls = await routeUniqueImages(server, 3, '/d');
    const db = createTestDb();
    const service = makeService(db, fakeProcessor());
    const { batch } = await service.create(listOf(urls), batchOptions());
    await service.start(batch.id);
    await service.delete(batch.id);
    for (const t of ['batches', 'items', 'results', 'result_tags', 'thumbnails'])
      expect(db.prepare(`SELECT count(*) AS n FROM ${t}`).get()).toEqual({ n: 0 });
    await expect(service.delete(batch.id)).rejects.toMatchObject({ code: 'not-found' });
  });
});
