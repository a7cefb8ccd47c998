import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config';
import type { Logger } from '../../core';
import { loadOrCreateTls, type ApiServices } from '../../services/api';
import type { ServerState, UiSettings } from '../../shared';
import { serverUrl } from '../address';
import { createHttpServer } from '../server';

/** Starts, stops and reports the local API server the desktop app runs from Settings. */
export interface ServerControl {
  status(): ServerState;
  /** Brings the server in line with the preferences (start, stop or move); never throws. */
  apply(prefs: UiSettings['server']): Promise<ServerState>;
  close(): Promise<void>;
}

export function createServerControl(opts: {
  config: AppConfig;
  /** The API services of the composition root (one engine, built on first start). */
  api: () => ApiServices;
  logger: Logger;
  /** Plain HTTP (tests on loopback); HTTPS with the generated certificate otherwise, as the spec asks. */
  plainHttp?: boolean;
}): ServerControl {
  let app: FastifyInstance | null = null;
  let url: string | null = null;
  let error: string | null = null;
  let applied = '';
  const status = (): ServerState => ({ running: app !== null, url, error });

  async function stop(): Promise<void> {
    const running = app;
    app = null;
    url = null;
    await running?.close();
  }

  return {
    status,
    async apply(prefs) {
      const key = JSON.stringify(prefs);
      if (key === applied && (app !== null) === prefs.enabled) return status();
      applied = key;
      await stop();
      error = null;
      if (!prefs.enabled) return status();
      try {
        const tls = opts.plainHttp ? undefined : await loadOrCreateTls({ dataDir: opts.config.dataDir });
        const server = await createHttpServer({ api: opts.api(), tls, logger: opts.logger });
        await server.listen({ host: prefs.host, port: prefs.port });
        app = server;
        url = serverUrl(server, Boolean(tls));
      } catch (err) {
        await stop();
        error = `The API server could not start on ${prefs.host}:${prefs.port}: ${err instanceof Error ? err.message : String(err)}`;
      }
      return status();
    },
    close: stop,
  };
}
