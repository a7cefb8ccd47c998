import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '../../../../src-main/config';
import { silentLogger, sleep } from '../../../../src-main/core';
import { createBackend } from '../../../../src-main/app';
import type { UiBackend } from '../../../../src-main/http/bridge';
import type { ImageProcessor } from '../../../../src-main/jobs';
import type { BatchProgress } from '../../../../src-main/shared';
import { startFixtureServer, type FixtureServer } from '../../../helpers/http-server';

let images: FixtureServer;
const urls: string[] = [];

beforeAll(async () => {
  images = await startFixtureServer();
  for (let i = 0; i < 12; i++) {
    images.route(`/p/${i}.png`, {
      body: await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: i * 20, g: 40, b: 99 } } })
        .png()
        .toBuffer(),
    });
    urls.push(images.url(`/p/${i}.png`));
  }
});
afterAll(() => images.close());

const slow = (delayMs: number): ImageProcessor => ({
  async process(image, _op, signal) {
    await sleep(delayMs, signal).catch(() => {});
    return { kind: 'analyze', data: { requestId: 'r', metadata: image.metadata, tags: [{ name: 'square', confidence: 0.9 }] } };
  },
});

/** The web-mode UI over the composed backend (Settings in a file vault, resume on start). */
async function open(
  config: AppConfig,
  processor: ImageProcessor,
): Promise<{ backend: UiBackend; resume(): number[]; close(): Promise<void> }> {
  const composed = createBackend(config, {
    logger: silentLogger,
    batches: { processor, progressIntervalMs: 20, resumeOnStart: true },
    ui: { mode: 'web', server: () => ({ running: false, url: null, error: null }) },
  });
  return { backend: await composed.ui(), resume: () => composed.resumeInterrupted(), close: () => composed.close() };
}

const run = <C extends keyof UiBackend['handlers']>(b: UiBackend, channel: C, req: unknown) => {
  const entry = b.handlers[channel] as { parse(r: unknown): unknown; run(r: unknown): Promise<unknown> };
  return entry.run(entry.parse(req)) as Promise<never>;
};

async function waitDone(b: UiBackend, batchId: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const s = (await run(b, 'batches:get', { batchId })) as { status: string };
    if (s.status === 'done') return;
    await sleep(25);
  }
  throw new Error('batch did not finish');
}

describe('UI backend over the real batch service', () => {
  it('creates and starts a batch from a pasted list, with progress events, and finishes it', async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-ui-')) }, {});
    const { backend, close } = await open(config, slow(5));
    const progress: BatchProgress[] = [];
    backend.events.subscribe((name, payload) => name === 'batches:progress' && progress.push(payload as BatchProgress));
    const report = (await run(backend, 'batches:create', {
      list: { text: [...urls, 'not a url'].join('\n'), format: 'txt' },
      options: { name: 'squares', operation: { kind: 'analyze', features: ['Tags'], details: [] }, backend: { kind: 'local' } },
    })) as { batch: { id: number }; invalid: number; items: number };
    expect(report).toMatchObject({ items: 13, invalid: 1 });
    await waitDone(backend, report.batch.id);
    const page = (await run(backend, 'results:page', { filter: { batchId: report.batch.id, tags: ['square'] } })) as { total: number };
    expect(page.total).toBe(12);
    expect(progress.at(-1)).toMatchObject({ status: 'done', counts: { done: 12, failed: 1 } });
    expect(await backend.thumbnails(1)).toMatchObject({ contentType: 'image/webp' });
    await close();
  });

  it("reads no relative path, and takes no folder from the client: only picscan batch names a list's folder", async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-ui-')) }, {});
    const { backend, close } = await open(config, slow(1));
    const options = { name: 'relative', operation: { kind: 'analyze', features: ['Tags'], details: [] }, backend: { kind: 'local' } };
    // A client naming a folder is refused before any batch exists (the contract has no such field).
    await expect(
      (async () => run(backend, 'batches:create', { list: { text: 'passwd\n', format: 'txt', baseDir: '/etc' }, options }))(),
    ).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/baseDir/) as unknown });
    expect(await run(backend, 'batches:list', undefined)).toEqual([]);
    // A pasted list has no folder: a relative line is an invalid item, as before.
    const report = (await run(backend, 'batches:create', { list: { text: 'photos/a.jpg\n', format: 'txt' }, options })) as {
      batch: { id: number };
      invalid: number;
    };
    expect(report.invalid).toBe(1);
    await close();
  });

  it('resumes on the next start a batch that was running when the app closed', async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-ui-')) }, {});
    const first = await open(config, slow(150));
    const report = (await run(first.backend, 'batches:create', {
      list: { text: urls.join('\n'), format: 'txt' },
      options: {
        name: 'interrupted',
        operation: { kind: 'analyze', features: ['Tags'], details: [] },
        backend: { kind: 'local' },
        analysisConcurrency: 1,
      },
    })) as { batch: { id: number } };
    await sleep(300);
    await first.close(); // the window closes mid-batch
    const second = await open(config, slow(1));
    expect(((await run(second.backend, 'batches:get', { batchId: report.batch.id })) as { status: string }).status).toBe('paused');
    expect(second.resume()).toEqual([report.batch.id]);
    await waitDone(second.backend, report.batch.id);
    const s = (await run(second.backend, 'batches:get', { batchId: report.batch.id })) as { counts: { done: number } };
    expect(s.counts.done).toBe(12);
    await second.close();
  });

  it('saves an export over an earlier file, through a temporary file that does not stay behind', async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-ui-')) }, {});
    const { backend, close } = await open(config, slow(1));
    const report = (await run(backend, 'batches:create', {
      list: { text: urls.slice(0, 3).join('\n'), format: 'txt' },
      options: { name: 'saved', operation: { kind: 'analyze', features: ['Tags'], details: [] }, backend: { kind: 'local' } },
    })) as { batch: { id: number } };
    await waitDone(backend, report.batch.id);
    const folder = mkdtempSync(join(tmpdir(), 'picscan-ui-save-'));
    const path = join(folder, 'results.csv');
    writeFileSync(path, 'the earlier export\n');
    const saved = await backend.saveExport({ filter: { batchId: report.batch.id }, format: 'csv' }, path);
    expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(4);
    expect(saved).toEqual({ path, bytes: statSync(path).size });
    expect(readdirSync(folder)).toEqual(['results.csv']);
    await close();
  });

  it('keeps settings: numbers in settings.json, the key write-only in a 0600 file', async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-ui-')) }, {});
    const { backend, close } = await open(config, slow(1));
    const after = (await run(backend, 'settings:update', {
      backend: { kind: 'remote', baseUrl: 'https://api.example.com', method: 'POST' },
      remoteKey: 'sk-secret',
      downloadConcurrency: 8,
    })) as Record<string, unknown>;
    expect(after).toMatchObject({ backend: { kind: 'remote' }, remoteKeySet: true, downloadConcurrency: 8 });
    expect(JSON.stringify(after)).not.toContain('sk-secret');
    expect(JSON.parse(readFileSync(join(config.dataDir, 'settings.json'), 'utf8'))).toEqual({ downloadConcurrency: 8 });
    expect(loadConfig({ dataDir: config.dataDir }, {}).downloadConcurrency).toBe(8);
    expect(statSync(join(config.dataDir, 'remote-api-key')).mode & 0o777).toBe(0o600);
    expect(((await run(backend, 'settings:update', { remoteKey: null })) as { remoteKeySet: boolean }).remoteKeySet).toBe(false);
    await close();
  });

  it('keeps the distributed workers Redis URL write-only (password never shown) and fills a distributed batch from it', async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-ui-redis-')) }, {});
    const { backend, close } = await open(config, slow(1));
    const options = (kind: 'distributed') => ({
      list: { text: 'https://example.com/a.jpg\n', format: 'txt' },
      options: {
        name: 'd',
        operation: { kind: 'analyze', features: ['Tags'], details: [] },
        backend: { kind, redisUrl: '', queueKey: '' },
      },
    });
    await expect(run(backend, 'batches:create', options('distributed'))).rejects.toMatchObject({ code: 'invalid-parameter' });
    await expect(run(backend, 'settings:update', { redisUrl: 'http://not-redis' })).rejects.toMatchObject({ code: 'invalid-parameter' });
    const after = (await run(backend, 'settings:update', { redisUrl: 'redis://:s3cret@127.0.0.1:1/2' })) as { redisUrl: string };
    expect(after.redisUrl).toBe('redis://:***@127.0.0.1:1/2');
    expect(statSync(join(config.dataDir, 'redis-url')).mode & 0o777).toBe(0o600);
    const created = (await run(backend, 'batches:create', options('distributed'))) as {
      batch: { id: number; backend: Record<string, string> };
    };
    // Stored without the password, with a fresh queue key.
    expect(created.batch.backend).toMatchObject({ kind: 'distributed', redisUrl: 'redis://127.0.0.1:1/2' });
    expect(created.batch.backend.queueKey).toMatch(/^[0-9a-f]{12}$/);
    // Nothing listens on port 1: the run stops within seconds with a clear notice, the batch paused.
    const notices: string[] = [];
    backend.events.subscribe((name, payload) => void (name === 'app:notice' && notices.push((payload as { message: string }).message)));
    for (let i = 0; i < 100 && notices.length === 0; i++) await sleep(100);
    expect(notices.join('\n')).toMatch(/Cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/2/);
    expect(notices.join('\n')).not.toContain('s3cret');
    expect(((await run(backend, 'batches:get', { batchId: created.batch.id })) as { status: string }).status).toBe('paused');
    await close();
  });
});
