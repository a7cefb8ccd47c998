import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-main/core';
import type { ImageProcessor } from '../../../src-main/jobs';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { createTestDb } from '../../helpers/db';
import { batchOptions, fakeProcessor, fixture, listOf, makeService } from './support';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  server.route('/cat_chelsea.jpg', { file: fixture('cat_chelsea.jpg') });
  // Not found during the batch (a 404 is not retried), served afterwards.
  server.route('/grace_hopper.jpg', [{ status: 404 }, { file: fixture('grace_hopper.jpg') }]);
});
afterAll(() => server.close());

/** The fake processor, with a switch that renames every tag (a "new model version"). */
function switchable(): ImageProcessor & { renamed: boolean; failing: boolean; calls: string[] } {
  const inner = fakeProcessor();
  const p = {
    renamed: false,
    failing: false,
    calls: inner.calls,
    async process(...args: Parameters<ImageProcessor['process']>) {
      if (p.failing) throw new AppError('model-failed', 'The model failed on this image.');
      const out = await inner.process(...args);
      if (p.renamed && out.kind === 'analyze') {
        out.data.tags = [{ name: 'renamed', confidence: 0.95 }];
        out.data.description = { tags: ['renamed'], captions: [{ text: 'a renamed picture', confidence: 0.9 }] };
      }
      return out;
    },
  };
  return p;
}

describe('re-analysing one item', () => {
  it('replaces a done item’s result, tags, facets and caption index in place', async () => {
    const db = createTestDb();
    const processor = switchable();
    const service = makeService(db, processor);
    const { batch } = await service.create(listOf([server.url('/cat_chelsea.jpg')]), batchOptions());
    await service.start(batch.id);
    const [item] = service.resultsPage({ filter: { batchId: batch.id } }).items;
    expect(item!.tags.map((t) => t.name)).toContain('cat');

    processor.renamed = true;
    const again = await service.reanalyze(item!.itemId);
    expect(again.status).toBe('done');
    expect(again.tags.map((t) => t.name)).toEqual(['renamed']);
    expect(again.caption).toBe('a renamed picture');
    expect(processor.calls).toHaveLength(2); // de-duplication did not short-circuit the re-run
    const facets = service.facets({ batchId: batch.id });
    expect(facets.tags.map((t) => t.name)).toEqual(['renamed']);
    expect(service.resultsPage({ filter: { batchId: batch.id, tags: ['cat'] } }).total).toBe(0);
    expect(service.resultsPage({ filter: { batchId: batch.id, captionText: 'renamed' } }).total).toBe(1);
    expect(service.get(batch.id).counts).toMatchObject({ total: 1, done: 1, failed: 0 });
  });

  it('turns a failed item into a done one once its image can be fetched', async () => {
    const db = createTestDb();
    const service = makeService(db, switchable());
    const { batch } = await service.create(listOf([server.url('/grace_hopper.jpg')]), batchOptions());
    await service.start(batch.id);
    const [failed] = service.resultsPage({ filter: { batchId: batch.id } }).items;
    expect(failed!.status).toBe('failed');
    const again = await service.reanalyze(failed!.itemId);
    expect(again).toMatchObject({ status: 'done', error: null });
    expect(service.get(batch.id).counts).toMatchObject({ total: 1, done: 1, failed: 0 });
  });

  it('keeps the stored result when the re-analysis fails, and explains', async () => {
    const db = createTestDb();
    const processor = switchable();
    const service = makeService(db, processor);
    const { batch } = await service.create(listOf([server.url('/cat_chelsea.jpg')]), batchOptions());
    await service.start(batch.id);
    const [item] = service.resultsPage({ filter: { batchId: batch.id } }).items;
    processor.failing = true;
    await expect(service.reanalyze(item!.itemId)).rejects.toMatchObject({ code: 'model-failed' });
    const after = service.result(item!.itemId);
    expect(after.item.status).toBe('done');
    expect(after.item.tags).toEqual(item!.tags);
    await expect(service.reanalyze(999_999)).rejects.toMatchObject({ code: 'not-found' });
  });
});
