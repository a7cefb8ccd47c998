import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Server as TlsServer } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { appRoot } from '../../config';
import { consoleLogger, type Logger } from '../../core';
import { serverUrl } from '../address';
import { createSessionToken } from './guard';
import { bridgeRoutes } from './routes';
import type { UiBackend } from './ui-backend';

/** Web mode's choices; the defaults are `picscan serve`'s. */
export interface WebModeOptions {
  /** Built renderer folder; default `out/renderer` when it exists. */
  rendererDir?: string | null;
  token?: string;
  /** Where the UI address is printed; default stdout. */
  print?: (line: string) => void;
  logger?: Logger;
  /** Called once the server listens, with its address (web mode then resumes interrupted batches). */
  onListening?: (url: string) => void;
}

/** The built renderer, or null when `npm run build` has not run. */
export function defaultRendererDir(): string | null {
  const dir = join(appRoot, 'out', 'renderer');
  return existsSync(join(dir, 'index.html')) ? dir : null;
}

/**
 * Web mode as a Fastify plugin over the composed UI backend: serves the UI at `/app/` and the
 * typed API at `/api/*` behind a per-start session token, and prints the address to open. The
 * backend belongs to the composition root, which closes it after the server.
 */
export function webModeBridge(ui: UiBackend, opts: WebModeOptions = {}): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    const logger = opts.logger ?? consoleLogger;
    const token = opts.token ?? createSessionToken();
    await app.register(
      bridgeRoutes({
        handlers: ui.handlers,
        events: ui.events,
        token,
        rendererDir: opts.rendererDir === undefined ? defaultRendererDir() : opts.rendererDir,
        thumbnails: ui.thumbnails,
        exportResults: ui.exportResults,
        logger,
      }),
    );
    app.addHook('onListen', async () => {
      const url = serverUrl(app, app.server instanceof TlsServer);
      const print = opts.print ?? ((line: string) => void process.stdout.write(`${line}\n`));
      print(`picscan UI (web mode): ${url}/app/?token=${token}`);
      opts.onListening?.(url);
    });
  };
}
