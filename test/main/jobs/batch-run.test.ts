import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { createTestDb } from '../../helpers/db';
import type { BatchProgress } from '../../../src-main/shared/batch';
import { batchOptions, fakeProcessor, fixture, listOf, makeService, manifest } from './support';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  for (let i = 0; i < 10; i++) {
    for (const m of manifest) server.route(`/img/${i}/${m.file}`, { file: fixture(m.file) });
  }
  server.route('/text.jpg', { body: 'this is not an image', headers: { 'content-type': 'image/jpeg' } });
});
afterAll(() => server.close());

describe('a 200-item batch', () => {
  it('completes with the right status for every item, bad URLs included, analysing each distinct image once', async () => {
    const good = Array.from({ length: 10 }, (_, i) => manifest.map((m) => server.url(`/img/${i}/${m.file}`))).flat(); // 180
    const bad = [
      server.url('/missing.jpg'),
      server.url('/text.jpg'),
      'not a url',
      'ftp://example.com/a.jpg',
      'http://user:pw@example.com/a.jpg',
      ...Array.from({ length: 15 }, (_, i) => server.url(`/missing-${i}.png`)),
    ];
    const lines = ['# a comment', '', ...good, ...bad, good[0]!, good[1]!];
    const processor = fakeProcessor();
    const service = makeService(createTestDb(), processor);
    const report = await service.create(listOf(lines), batchOptions({ name: 'two hundred' }));
    expect(report).toMatchObject({ lines: 202, items: 200, duplicates: 2, invalid: 3 });

    const events: BatchProgress[] = [];
    service.onProgress((p) => events.push(p));
    const summary = await service.start(report.batch.id);

    expect(summary.status).toBe('done');
    expect(summary.counts).toEqual({ total: 200, queued: 0, running: 0, done: 180, failed: 20, skipped: 0 });
    expect(new Set(processor.calls).size).toBe(manifest.length);
    expect(processor.calls.length).toBe(manifest.length); // identical bytes analysed once

    const failed = service.resultsPage({ filter: { batchId: summary.id, status: ['failed'] }, limit: 100 }).items;
    const codeOf = (url: string): string | undefined => failed.find((f) => f.url === url || f.url.startsWith(url))?.error?.code;
    expect(codeOf(server.url('/missing.jpg'))).toBe('image-fetch-failed');
    expect(codeOf(server.url('/text.jpg'))).toBe('invalid-image-format');
    expect(codeOf('not a url')).toBe('invalid-image-url');
    expect(codeOf('ftp://example.com/a.jpg')).toBe('unsupported-scheme');
    expect(failed.find((f) => f.url.includes('example.com/a.jpg') && f.url.startsWith('http'))?.error?.code).toBe('invalid-image-url');

    const done = service.resultsPage({ filter: { batchId: summary.id, status: ['done'] }, limit: 500 });
    expect(done.total).toBe(180);
    expect(done.items.filter((i) => i.reused)).toHaveLength(180 - manifest.length);
    expect(done.items.every((i) => i.hasThumbnail && i.width! > 0 && i.format !== null)).toBe(true);

    const last = events.at(-1)!;
    expect(last).toMatchObject({ batchId: summary.id, status: 'done', etaSeconds: 0 });
    expect(last.counts.done).toBe(180);
    expect(events.some((e) => e.status === 'running')).toBe(true);
  });

  it('records a processing error on the item without stopping the batch', async () => {
    const service = makeService(createTestDb(), fakeProcessor({ failOn: /cat_chelsea/ }));
    const urls = manifest.map((m) => server.url(`/img/0/${m.file}`));
    const { batch } = await service.create(listOf(urls), batchOptions());
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ done: manifest.length - 1, failed: 1 });
    const [failed] = service.resultsPage({ filter: { batchId: batch.id, status: ['failed'] } }).items;
    expect(failed).toMatchObject({ url: server.url('/img/0/cat_chelsea.jpg'), error: { code: 'model-failed' } });
  });
});
