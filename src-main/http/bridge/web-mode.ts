import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Server as TlsServer } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { appRoot, type AppConfig } from '../../config';
import { consoleLogger, type Logger } from '../../core';
import { openApiDatabase } from '../../services/api';
import type { ImageFetcher, ImageProcessor } from '../../services/batches';
import { serverUrl } from '../address';
import { createSessionToken } from './guard';
import { bridgeRoutes } from './routes';
import { openLocalBackends } from './local-backends';
import { fileKeyVault } from './settings-store';
import { createUiBackend, resumeInterrupted, type UiBackend } from './ui-backend';

/** What `picscan serve` hands its extensions. */
export interface WebModeContext {
  config: AppConfig;
}

/** Seams for tests and for builds that bring their own analysis backend. */
export interface WebModeOverrides {
  processor?: ImageProcessor;
  fetcher?: ImageFetcher;
  /** Built renderer folder; default `out/renderer` when it exists. */
  rendererDir?: string | null;
  token?: string;
  /** Where the UI address is printed; default stdout. */
  print?: (line: string) => void;
  logger?: Logger;
  progressIntervalMs?: number;
  /** Receives the composed backend (tests seed and inspect through it). */
  onBackend?: (backend: UiBackend) => void;
}

/** The built renderer, or null when `npm run build` has not run. */
export function defaultRendererDir(): string | null {
  const dir = join(appRoot, 'out', 'renderer');
  return existsSync(join(dir, 'index.html')) ? dir : null;
}

/**
 * Web mode as a `picscan serve` extension: opens the app database, runs batches in this process,
 * serves the UI at `/app/` and the typed API at `/api/*` behind a per-start session token, and
 * prints the address to open. Batches interrupted by an earlier stop resume once listening.
 */
export function webModeBridge(ctx: WebModeContext, overrides: WebModeOverrides = {}): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    const logger = overrides.logger ?? consoleLogger;
    const local = overrides.processor ? undefined : await openLocalBackends(ctx.config, logger);
    const db = openApiDatabase(ctx.config.dbPath);
    const token = overrides.token ?? createSessionToken();
    let url: string | null = null;
    const backend = createUiBackend({
      config: ctx.config,
      db,
      mode: 'web',
      processor: overrides.processor ?? local?.processor,
      galleries: local?.galleries,
      fetcher: overrides.fetcher,
      vault: fileKeyVault(ctx.config.dataDir),
      server: () => ({ running: url !== null, url, error: null }),
      logger,
      progressIntervalMs: overrides.progressIntervalMs,
    });
    overrides.onBackend?.(backend);
    await app.register(
      bridgeRoutes({
        handlers: backend.handlers,
        events: backend.events,
        token,
        rendererDir: overrides.rendererDir === undefined ? defaultRendererDir() : overrides.rendererDir,
        thumbnails: backend.thumbnails,
        exportResults: backend.exportResults,
        logger,
      }),
    );
    app.addHook('onListen', async () => {
      url = serverUrl(app, app.server instanceof TlsServer);
      const print = overrides.print ?? ((line: string) => void process.stdout.write(`${line}\n`));
      print(`picscan UI (web mode): ${url}/app/?token=${token}`);
      resumeInterrupted(backend, ctx.config);
    });
    app.addHook('onClose', async () => {
      await backend.close();
      await local?.close();
      db.close();
    });
  };
}
