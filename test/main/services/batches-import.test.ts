import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BatchesRepo } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';
import { batchOptions, fakeProcessor, listOf, makeService } from '../jobs/support';

describe('creating batches from lists', () => {
  it('keeps CSV columns as item metadata and reports duplicates and invalid lines', async () => {
    const service = makeService(createTestDb(), fakeProcessor());
    const csv = 'sku,URL,title\nA1,http://img.test/1.jpg,"Red, large"\nA2,http://img.test/1.jpg,dup\nA3,notaurl,x\n';
    const report = await service.create(listOf([csv]), batchOptions());
    expect(report).toMatchObject({
      lines: 3,
      items: 2,
      duplicates: 1,
      invalid: 1,
      batch: { status: 'queued', counts: { total: 2, queued: 1, failed: 1 } },
    });
    const items = service.resultsPage({ filter: { batchId: report.batch.id } }).items;
    expect(items.map((i) => [i.url, i.status, i.metadata])).toEqual([
      ['http://img.test/1.jpg', 'queued', { sku: 'A1', title: 'Red, large' }],
      ['notaurl', 'failed', { sku: 'A3', title: 'x' }],
    ]);
    expect(items[1]!.error).toEqual({
      code: 'invalid-image-url',
      message: 'Line 4: "notaurl" is not a valid URL (http://…, https://… or file:///…).',
    });
  });

  it("reads relative paths from the list's folder when given one (an absolute path), and only then", async () => {
    const service = makeService(createTestDb(), fakeProcessor());
    const text = 'a.jpg\n../b.jpg\n/srv/p/a.jpg\n';
    const report = await service.create(listOf([text]), batchOptions(), 'txt', undefined, { baseDir: '/srv/p' });
    expect(report).toMatchObject({ lines: 3, items: 2, duplicates: 1, invalid: 0 });
    const urls = service.resultsPage({ filter: { batchId: report.batch.id } }).items.map((i) => i.url);
    expect(urls).toEqual(['file:///srv/p/a.jpg', 'file:///srv/b.jpg']);
    expect(await service.create(listOf([text]), batchOptions(), 'txt')).toMatchObject({ items: 3, invalid: 2 });
    // A folder that is not absolute is a caller's mistake, refused before any batch exists.
    await expect(service.create(listOf([text]), batchOptions(), 'txt', undefined, { baseDir: 'p' })).rejects.toMatchObject({
      code: 'invalid-parameter',
      message: 'The list\'s folder must be an absolute path, not "p".',
    });
    expect(service.list()).toHaveLength(2);
  });

  it('leaves no batch behind when the list cannot be read', async () => {
    const service = makeService(createTestDb(), fakeProcessor());
    await expect(service.create(listOf(['a,b\n1,2\n']), batchOptions(), 'csv')).rejects.toMatchObject({ code: 'invalid-list' });
    const broken = new Readable({
      read() {
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(service.create(broken, batchOptions(), 'txt')).rejects.toThrow(/disk gone/);
    expect(service.list()).toEqual([]);
  });

  it('refuses to run a batch whose import was interrupted by a crash', async () => {
    const db = createTestDb();
    const service = makeService(db, fakeProcessor());
    // What a crash mid-import leaves: the batch row, some items, import never marked complete.
    const id = new BatchesRepo(db).insert(batchOptions());
    await expect(service.start(id)).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/not fully imported/) as unknown,
    });
  });

  it('rejects bad options', async () => {
    const service = makeService(createTestDb(), fakeProcessor());
    await expect(service.create(listOf(['http://a/1.jpg']), batchOptions({ name: ' ' }))).rejects.toMatchObject({
      code: 'invalid-parameter',
    });
    await expect(service.create(listOf(['http://a/1.jpg']), batchOptions({ downloadConcurrency: 0 }))).rejects.toMatchObject({
      code: 'invalid-parameter',
    });
    expect(() => service.get(12345)).toThrow(/no batch 12345/);
    // start() always answers with a promise: adapters chain .catch() on it.
    await expect(service.start(12345)).rejects.toMatchObject({ code: 'not-found' });
    const remote = await service.create(
      listOf(['http://a/1.jpg']),
      batchOptions({ backend: { kind: 'remote', baseUrl: 'https://api.example' } }),
    );
    await expect(service.start(remote.batch.id)).rejects.toMatchObject({ code: 'invalid-input' });
  });
});
