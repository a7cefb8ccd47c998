// The desktop backend (an Electron utility process): an adapter from the main process's port to
// the composed backend (app/). No logic here.
import { createBackend } from './app';
import { loadConfig } from './config';
import { consoleLogger } from './core';
import { memoryKeyVault } from './http/bridge';
import { serveBackend, type FromBackend, type ToBackend } from './ipc';

interface ParentPort {
  postMessage(message: FromBackend): void;
  on(event: 'message', listener: (e: { data: ToBackend }) => void): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!parentPort) throw new Error('backend-process must run as an Electron utility process');

const backend = createBackend(loadConfig(), {
  logger: consoleLogger,
  batches: { resumeOnStart: true },
  // The main process keeps the remote key with safeStorage; here it lives in memory only.
  ui: { mode: 'desktop', vault: memoryKeyVault() },
});
const ui = await backend.ui();

serveBackend(
  { postMessage: (m) => parentPort.postMessage(m), onMessage: (l) => parentPort.on('message', (e) => l(e.data)) },
  ui,
  consoleLogger,
);
backend.resumeInterrupted();

process.on('SIGTERM', () => {
  void backend.close().finally(() => process.exit(0));
});
