import { AppError } from '../../../src-main/core';
import type { ApiDeps } from '../../../src-main/http/bridge';
import type { BatchSummary, ResultItem, UiSettings } from '../../../src-main/shared';

/** In-memory ports for contract and bridge tests: one batch, a few items, settings in memory. */
export function fakeDeps(): ApiDeps {
  const batch: BatchSummary = {
    id: 1,
    name: 'fixtures',
    status: 'done',
    operation: { kind: 'analyze', features: ['Tags'], details: [] },
    backend: { kind: 'local' },
    counts: { total: 2, queued: 0, running: 0, done: 2, failed: 0, skipped: 0 },
    createdAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
  };
  const item = (itemId: number, tag: string): ResultItem => ({
    itemId,
    batchId: 1,
    url: `http://127.0.0.1/${tag}.jpg`,
    status: 'done',
    error: null,
    width: 100,
    height: 80,
    caption: `a ${tag}`,
    tags: [{ name: tag, confidence: 0.9 }],
    faceCount: 0,
    adultScore: 0.01,
    racyScore: 0.02,
    isBW: false,
    clipArtType: 0,
    lineDrawingType: 0,
    dominantColors: ['Brown'],
    accentColor: 'A05020',
    reused: false,
    worker: null,
    hasThumbnail: false,
    format: 'Jpeg',
    categories: [],
    metadata: null,
  });
  const items = [item(1, 'cat'), item(2, 'dog')];
  let settings: UiSettings = {
    backend: { kind: 'local' },
    remoteKeySet: false,
    downloadConcurrency: 16,
    analysisConcurrency: 2,
    modelThreads: 2,
    server: { enabled: false, host: '127.0.0.1', port: 8443 },
    redisUrl: null,
  };
  const get = async (id: number): Promise<BatchSummary> => {
    if (id !== 1) throw new AppError('not-found', `There is no batch ${id}.`);
    return batch;
  };
  return {
    info: { version: '9.9.9', dataDir: '/data', dbPath: '/data/picscan.db', mode: 'web' },
    batches: {
      list: async () => [batch],
      get,
      create: async () => ({ batch, lines: 2, items: 2, duplicates: 0, invalid: 0 }),
      pause: get,
      resume: get,
      retryFailed: get,
      cancel: get,
      remove: async (id) => void (await get(id)),
      progress: async () => [],
    },
    results: {
      page: async (q) => {
        const hits = items.filter((i) => !q.filter.tags?.length || q.filter.tags.every((t) => i.tags.some((x) => x.name === t)));
        return {
          items: hits.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 100)),
          total: hits.length,
          offset: q.offset ?? 0,
          limit: q.limit ?? 100,
        };
      },
      facets: async () => ({
        total: 2,
        tags: [{ name: 'cat', count: 1 }],
        categories: [],
        colors: [],
        status: [{ name: 'done', count: 2 }],
        withFaces: 0,
        bw: 0,
        clipArt: 0,
        lineDrawing: 0,
      }),
      get: async (id) => {
        const found = items.find((i) => i.itemId === id);
        if (!found) throw new AppError('not-found', `There is no item ${id}.`);
        return { item: found, response: { requestId: 'r', metadata: { width: 100, height: 80, format: 'Jpeg' } } };
      },
      reanalyze: async (id) => items.find((i) => i.itemId === id) ?? items[0]!,
    },
    settings: {
      get: async () => settings,
      update: async (change) => {
        const { remoteKey, ...rest } = change;
        settings = { ...settings, ...rest, remoteKeySet: remoteKey === undefined ? settings.remoteKeySet : remoteKey !== null };
        return settings;
      },
    },
    server: { status: async () => ({ running: true, url: 'http://127.0.0.1:1', error: null }) },
  };
}
