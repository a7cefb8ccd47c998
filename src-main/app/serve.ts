import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config';
import { AppError, consoleLogger } from '../core';
import { createHttpServer, serverUrl } from '../http';
import { webModeBridge, type UiBackend, type WebModeOptions } from '../http/bridge';
import type { TlsMaterial } from '../services/api';
import { createBackend, type Backend, type BackendOptions } from './backend';

/** Where and how `picscan serve` listens. */
export interface ServeOptions {
  host: string;
  port: number;
  tls?: TlsMaterial;
  /** Web mode's choices (renderer folder, token, where the address is printed). */
  web?: Omit<WebModeOptions, 'onListening' | 'logger'>;
}

/** A listening `picscan serve`: the API and web mode over one backend. */
export interface RunningServer {
  app: FastifyInstance;
  url: string;
  backend: Backend;
  ui: UiBackend;
  /** Finishes open requests, then closes the backend (batches pause, noted for the next start). */
  close(): Promise<void>;
}

/**
 * `picscan serve`: one backend (one database connection, one engine) behind the spec's API and
 * the web-mode UI. Batches interrupted by an earlier stop resume once the server listens.
 */
export async function startServer(config: AppConfig, opts: ServeOptions, backendOptions: BackendOptions = {}): Promise<RunningServer> {
  const logger = backendOptions.logger ?? consoleLogger;
  let url: string | null = null;
  const backend = createBackend(config, {
    ...backendOptions,
    logger,
    batches: { ...backendOptions.batches, resumeOnStart: true },
    ui: { mode: 'web', server: () => ({ running: url !== null, url, error: null }) },
  });
  let app: FastifyInstance | undefined;
  try {
    backend.db(); // an unusable database fails the start before any model or worker starts
    const ui = await backend.ui();
    app = await createHttpServer({
      api: backend.api(),
      tls: opts.tls,
      logger,
      extraRoutes: [
        webModeBridge(ui, {
          ...opts.web,
          logger,
          onListening: (at) => {
            url = at;
            backend.resumeInterrupted();
          },
        }),
      ],
    });
    try {
      await app.listen({ host: opts.host, port: opts.port });
    } catch (cause) {
      throw new AppError('invalid-input', `Cannot listen on ${opts.host}:${opts.port}: ${(cause as Error).message}`, { cause });
    }
    const running = app;
    return {
      app: running,
      url: serverUrl(running, Boolean(opts.tls)),
      backend,
      ui,
      close: async () => {
        try {
          await running.close();
        } finally {
          await backend.close();
        }
      },
    };
  } catch (err) {
    await app?.close();
    await backend.close();
    throw err;
  }
}
