import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { createTestDb } from '../../helpers/db';
import { batchOptions, fakeProcessor, fixture, listOf, makeService } from './support';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  for (let i = 0; i < 12; i++) server.route(`/copy-${i}.jpg`, { file: fixture('grace_hopper.jpg') });
});
afterAll(() => server.close());

describe('de-duplication by content', () => {
  it('analyses identical bytes once, even when the copies are fetched at the same time, and marks reuse', async () => {
    const db = createTestDb();
    const processor = fakeProcessor({ delayMs: 30 });
    const service = makeService(db, processor);
    const urls = Array.from({ length: 12 }, (_, i) => server.url(`/copy-${i}.jpg`));
    const { batch } = await service.create(listOf(urls), batchOptions({ downloadConcurrency: 12, analysisConcurrency: 4 }));
    await service.start(batch.id);
    expect(processor.calls).toHaveLength(1);
    const page = service.resultsPage({ filter: { batchId: batch.id } });
    expect(page.items.map((i) => i.status)).toEqual(Array(12).fill('done'));
    expect(page.items.filter((i) => !i.reused)).toHaveLength(1);
    const original = page.items.find((i) => !i.reused)!;
    const copy = page.items.find((i) => i.reused)!;
    expect(service.result(copy.itemId).response).toEqual(service.result(original.itemId).response);
    expect(copy.tags).toEqual(original.tags);
    expect(db.prepare('SELECT count(DISTINCT reused_from) AS n FROM items WHERE reused_from IS NOT NULL').get()).toEqual({ n: 1 });
  });

  it('reuses results across batches with the same operation, but not for a different one', async () => {
    const db = createTestDb();
    const processor = fakeProcessor();
    const service = makeService(db, processor);
    const first = await service.create(listOf([server.url('/copy-0.jpg')]), batchOptions());
    await service.start(first.batch.id);
    const second = await service.create(listOf([server.url('/copy-1.jpg')]), batchOptions());
    await service.start(second.batch.id);
    expect(processor.calls).toHaveLength(1);
    const other = await service.create(
      listOf([server.url('/copy-2.jpg')]),
      batchOptions({ operation: { kind: 'analyze', features: ['Tags'], details: [] } }),
    );
    await service.start(other.batch.id);
    expect(processor.calls).toHaveLength(2);
  });
});
