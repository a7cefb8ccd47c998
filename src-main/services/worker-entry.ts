import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { silentLogger, type Logger } from '../core';

/**
 * The worker threads with an entry of their own: `<name>-entry.ts` in the source, bundled by
 * electron-vite to `out/main/<name>.js` (electron.vite.config.ts).
 */
export type WorkerName = 'analyze-worker' | 'batches-worker';

/** Options of `resolveWorkerEntry`. */
export interface WorkerEntryOptions {
  logger?: Logger;
  /** Use this entry instead of looking for one (tests); still checked to be a file. */
  entry?: URL;
  /** Folder to look in (tests); default the folder of this module. */
  dir?: URL;
}

/**
 * Where worker `name` starts, looked for beside this module: in the electron-vite build (every
 * main-process file flat in `out/main/`) the bundled `<name>.js`; from the source (tsx, vitest)
 * the boot file `<name>-boot.mjs`, which registers tsx and imports the TypeScript entry. Returns
 * undefined, with a warning, when neither is a file: the caller then analyses on its own thread.
 */
export function resolveWorkerEntry(name: WorkerName, opts: WorkerEntryOptions = {}): URL | undefined {
  const dir = opts.dir ?? new URL('.', import.meta.url);
  const candidates = opts.entry ? [opts.entry] : [new URL(`${name}.js`, dir), new URL(`${name}-boot.mjs`, dir)];
  const found = candidates.find((url) => url.protocol === 'file:' && existsSync(fileURLToPath(url)));
  if (!found) {
    (opts.logger ?? silentLogger).warn(`${name} entry not found; analysing on this thread instead`, {
      lookedFor: candidates.map((url) => url.href),
    });
  }
  return found;
}
