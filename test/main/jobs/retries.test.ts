import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { createTestDb } from '../../helpers/db';
import { isTransient } from '../../../src-main/jobs';
import { AppError } from '../../../src-main/core';
import { batchOptions, fakeProcessor, fixture, listOf, makeService } from './support';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

describe('batch retries', () => {
  it('retries transient failures (a server failing twice, then serving) and not permanent ones', async () => {
    server.route('/flaky.jpg', [{ status: 503 }, { reset: true }, { file: fixture('cat_chelsea.jpg') }]);
    server.route('/gone.jpg', { status: 404 });
    const db = createTestDb();
    // Intake's own quick retries off: the batch-level policy is what is under test.
    const service = makeService(db, fakeProcessor(), { maxRetries: 0 });
    const { batch } = await service.create(listOf([server.url('/flaky.jpg'), server.url('/gone.jpg')]), batchOptions());
    const summary = await service.start(batch.id);
    expect(summary.counts).toMatchObject({ done: 1, failed: 1 });
    expect(server.hits('/flaky.jpg')).toBe(3);
    expect(server.hits('/gone.jpg')).toBe(1);
    expect(db.prepare('SELECT url, status, attempts FROM items ORDER BY id').all()).toEqual([
      { url: server.url('/flaky.jpg'), status: 'done', attempts: 3 },
      { url: server.url('/gone.jpg'), status: 'failed', attempts: 1 },
    ]);
  });

  it('gives up after the last attempt with the real error', async () => {
    server.route('/down.jpg', { status: 500 });
    const service = makeService(createTestDb(), fakeProcessor(), { maxRetries: 0 });
    const { batch } = await service.create(listOf([server.url('/down.jpg')]), batchOptions());
    await service.start(batch.id);
    const [item] = service.resultsPage({ filter: { batchId: batch.id } }).items;
    expect(item!.error).toMatchObject({ code: 'image-fetch-failed' });
    expect(item!.error!.message).toMatch(/HTTP 500/);
    expect(server.hits('/down.jpg')).toBe(3);
  });

  it('classifies errors', () => {
    expect(isTransient(new AppError('image-timeout', 't'))).toBe(true);
    expect(isTransient(new AppError('image-fetch-failed', 'x', { details: { status: 503 } }))).toBe(true);
    expect(isTransient(new AppError('image-fetch-failed', 'x', { details: { status: 404 } }))).toBe(false);
    expect(isTransient(new AppError('image-fetch-failed', 'x', { details: { reason: 'ECONNREFUSED' } }))).toBe(false);
    expect(isTransient(new AppError('invalid-image-format', 'x'))).toBe(false);
    expect(isTransient(new Error('boom'))).toBe(false);
  });
});
