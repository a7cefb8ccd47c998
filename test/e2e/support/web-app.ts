import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src-main/config';
import { silentLogger } from '../../../src-main/core';
import { startServer } from '../../../src-main/app';
import type { UiBackend } from '../../../src-main/http/bridge';
import type { ImageProcessor } from '../../../src-main/jobs';
import { repoRoot } from '../../helpers/paths';

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** The built renderer; (re)built with electron-vite when missing or older than `src-renderer/`. */
export function ensureRendererBuilt(): string {
  const dir = join(repoRoot, 'out', 'renderer');
  const index = join(dir, 'index.html');
  if (!existsSync(index) || statSync(index).mtimeMs < newestMtimeMs(join(repoRoot, 'src-renderer'))) {
    const r = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('npm run build failed: the web-mode UI cannot be served');
  }
  return dir;
}

export interface WebApp {
  /** The address `picscan serve` prints: `http://127.0.0.1:<port>/app/?token=…` */
  appUrl: string;
  origin: string;
  dataDir: string;
  backend: UiBackend;
  close(): Promise<void>;
}

/**
 * `picscan serve --http --port 0` in-process: the same API server and web-mode extension, over a
 * database in `dataDir` (a fresh temporary one unless given, so a restart can reopen it), on
 * `port` when given (a restart on the same address).
 */
export async function startWebApp(opts: { processor: ImageProcessor; dataDir?: string; port?: number }): Promise<WebApp> {
  const rendererDir = ensureRendererBuilt();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'picscan-e2e-'));
  const config = loadConfig({ dataDir }, {});
  let printed = '';
  const server = await startServer(
    config,
    { host: '127.0.0.1', port: opts.port ?? 0, web: { rendererDir, print: (line) => (printed = line) } },
    { logger: silentLogger, batches: { processor: opts.processor, progressIntervalMs: 100 } },
  );
  const appUrl = /(http:\/\/\S+\/app\/\?token=\S+)/.exec(printed)?.[1];
  if (!appUrl) throw new Error(`web mode did not print its address (got "${printed}")`);
  return {
    appUrl,
    origin: server.url,
    dataDir,
    backend: server.ui,
    close: () => server.close(),
  };
}
