// Composition root of the desktop backend (an Electron utility process): config → database →
// batch service → handler table, answering the main process over its parent port. No logic here.
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { loadConfig } from './config';
import { consoleLogger } from './core';
import { createServerControl, createUiBackend, memoryKeyVault, openLocalBackends, resumeInterrupted } from './http/bridge';
import { serveBackend, type FromBackend, type ToBackend } from './ipc';
import { openApiDatabase } from './services/api';

interface ParentPort {
  postMessage(message: FromBackend): void;
  on(event: 'message', listener: (e: { data: ToBackend }) => void): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!parentPort) throw new Error('backend-process must run as an Electron utility process');

const config = loadConfig();
const local = await openLocalBackends(config, consoleLogger);
const db = openApiDatabase(config.dbPath);
const server = createServerControl({ config, db, logger: consoleLogger });
const backend = createUiBackend({
  config,
  db,
  mode: 'desktop',
  processor: local.processor,
  galleries: local.galleries,
  vault: memoryKeyVault(),
  server: () => server.status(),
  onSettingsSaved: (s) => server.apply(s.server),
  logger: consoleLogger,
});

serveBackend(
  { postMessage: (m) => parentPort.postMessage(m), onMessage: (l) => parentPort.on('message', (e) => l(e.data)) },
  backend.handlers,
  backend.events.subscribe,
  consoleLogger,
  {
    exportToFile: async (filter, format, path) => {
      const out = createWriteStream(path);
      await backend.service.export(filter, format, out);
      out.end();
      await finished(out);
      return { path, bytes: (await stat(path)).size };
    },
    thumbnail: backend.thumbnails,
  },
);
resumeInterrupted(backend, config);
void backend.handlers['settings:get'].run(undefined).then((s) => server.apply(s.server));

process.on('SIGTERM', () => {
  void Promise.all([backend.close(), server.close(), local.close()]).finally(() => {
    db.close();
    process.exit(0);
  });
});
