import { request, type Dispatcher } from 'undici';
import type { FastifyInstance } from 'fastify';
import { createHttpServer, serverUrl, type ServerTimeouts } from '../../../src-main/http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src-main/config';
import type { Logger } from '../../../src-main/core';
import { createBackend } from '../../../src-main/app';
import { createApiServices, type ApiServices, type ImageOperations } from '../../../src-main/services/api';
import { intakeOptions, loadImage, type IntakeOptions } from '../../../src-main/intake';
import type { Db } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

/** A running API server on 127.0.0.1 (port 0) over a fresh in-memory database. */
export interface ApiHarness {
  url: string;
  app: FastifyInstance;
  api: ApiServices;
  db: Db;
  close(): Promise<void>;
}

export async function startApi(opts: {
  operations: ImageOperations;
  nowMs?: () => number;
  tls?: { cert: string; key: string };
  timeouts?: Partial<ServerTimeouts>;
  bodyLimitBytes?: number;
  logger?: Logger;
}): Promise<ApiHarness> {
  const db = createTestDb();
  const api = createApiServices({ db, operations: opts.operations, nowMs: opts.nowMs });
  const app = await createHttpServer({
    api,
    tls: opts.tls,
    timeouts: opts.timeouts,
    bodyLimitBytes: opts.bodyLimitBytes,
    logger: opts.logger,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: serverUrl(app, Boolean(opts.tls)),
    app,
    api,
    db,
    close: async () => {
      await app.close();
      db.close();
    },
  };
}

/**
 * The real operations (analyze and detect services over the real models in `models/`), as
 * `picscan serve` builds them; private networks allowed by default so the loopback fixture server
 * can serve images. Call `close()` when done.
 */
export function realOperations(opts: { blockPrivateNetworks?: boolean } = {}): ImageOperations & { close(): Promise<void> } {
  const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-api-ops-')) }, {});
  const backend = createBackend(config, { apiBlockPrivateNetworks: opts.blockPrivateNetworks ?? false });
  return { ...backend.operations(), close: () => backend.close() };
}

/**
 * Test operations that run the real intake (api mode: no files, private networks blocked unless
 * allowed) and answer from the decoded image (private networks allowed by default here, for the loopback fixture server): analyze returns metadata, detect one face, or 5002
 * for files whose name contains "noface". Stand-ins for the model services where a test sends hundreds of calls (billing, limits): charging
 * does not depend on what the models find, and 200 real analyses would take minutes on CI.
 */
export function intakeOperations(overrides: Partial<IntakeOptions> = {}): ImageOperations & { calls: number } {
  const opts = intakeOptions('api', { maxRetries: 0, blockPrivateNetworks: false, ...overrides });
  const ops = {
    calls: 0,
    async analyze(req: { image: string }, signal?: AbortSignal) {
      ops.calls++;
      const img = await loadImage(req.image, opts, signal);
      return { requestId: '00000000-0000-4000-8000-000000000000', metadata: img.metadata };
    },
    async detect(req: { image: string }, signal?: AbortSignal) {
      ops.calls++;
      const img = await loadImage(req.image, opts, signal);
      if (img.fileName.includes('noface')) return { Errors: [{ Message: 'No faces found in the image.', ErrCode: 5002 }] };
      return {
        images: [{ status: 'Complete' as const, width: img.metadata.width, height: img.metadata.height, file: img.fileName, faces: [] }],
      };
    },
  };
  return ops;
}

/** One HTTP call; the body parsed as JSON. */
export async function call(
  url: string,
  init: {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS' | 'HEAD';
    headers?: Record<string, string>;
    body?: string;
    dispatcher?: Dispatcher;
  } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: Record<string, unknown> }> {
  const res = await request(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body, dispatcher: init.dispatcher });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** POST JSON with the key in header `key`. */
export const postJson = (url: string, body: unknown, key?: string, dispatcher?: Dispatcher) =>
  call(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { key } : {}) },
    body: JSON.stringify(body),
    dispatcher,
  });

/** GET with parameters (and the key) in the query string. */
export const getQuery = (url: string, params: Record<string, string>, dispatcher?: Dispatcher) =>
  call(`${url}?${new URLSearchParams(params).toString()}`, { dispatcher });
