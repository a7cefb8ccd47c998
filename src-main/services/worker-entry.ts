import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { silentLogger, type Logger } from '../core';
import { APP_ENTRIES, bundleApp } from '../../bin/source-bundle.js';

/**
 * The worker threads with an entry of their own: `<name>-entry.ts` in the source, bundled by
 * electron-vite to `out/main/<name>.js` (electron.vite.config.ts) and into the bundle of the
 * sources beside the CLI (APP_ENTRIES of bin/source-bundle.js).
 */
export type WorkerName = Exclude<keyof typeof APP_ENTRIES, 'cli'>;
const WORKER_NAMES = Object.keys(APP_ENTRIES).filter((n): n is WorkerName => n !== 'cli');

/** Options of `resolveWorkerEntry`. */
export interface WorkerEntryOptions {
  logger?: Logger;
  /** Use this entry instead of looking for one (tests); still checked to be a file. */
  entry?: URL;
  /** Folder to look in (tests); default the folder of this module. */
  dir?: URL;
  /**
   * From the source, start from a bundle of the sources (bin/source-bundle.js) rather than
   * the tsx boot file; default true.
   */
  bundleSources?: boolean;
}

/** Bundle folder per source folder, made once per process (undefined: bundling failed). */
const bundles = new Map<string, URL | undefined>();

/**
 * Where worker `name` starts, looked for beside this module:
 * - in the electron-vite build (every main-process file flat in `out/main/`), the bundled `<name>.js`;
 * - from the source (tsx, vitest), `<name>.js` in a bundle of the sources made once per process
 *   in `<app root>/.cache/` (bin/source-bundle.js), or, when that cannot be made, the boot file
 *   `<name>-boot.mjs`, which registers tsx and imports the TypeScript entry.
 * Returns undefined, with a warning, when none is a file: the caller then analyses on its own thread.
 */
export function resolveWorkerEntry(name: WorkerName, opts: WorkerEntryOptions = {}): URL | undefined {
  const logger = opts.logger ?? silentLogger;
  const dir = opts.dir ?? new URL('.', import.meta.url);
  const built = new URL(`${name}.js`, dir);
  const boot = new URL(`${name}-boot.mjs`, dir);
  const candidates = opts.entry ? [opts.entry] : [built, boot];
  const found = candidates.find(isFile);
  if (!found) {
    logger.warn(`${name} entry not found; analysing on this thread instead`, { lookedFor: candidates.map((url) => url.href) });
    return undefined;
  }
  if (found !== boot || opts.bundleSources === false) return found;
  const bundle = sourceBundle(dir, logger);
  return bundle ? new URL(`${name}.js`, bundle) : boot;
}

function isFile(url: URL): boolean {
  return url.protocol === 'file:' && existsSync(fileURLToPath(url));
}

function sourceBundle(sourceDir: URL, logger: Logger): URL | undefined {
  const made = bundles.get(sourceDir.href);
  // Made before, unless another process has since removed it as stale (bin/source-bundle.js).
  if (bundles.has(sourceDir.href) && (!made || WORKER_NAMES.every((n) => isFile(new URL(`${n}.js`, made))))) return made;
  let bundle: URL | undefined;
  try {
    const t0 = performance.now();
    // The app root is two levels above this folder (src-main/services/), as the bundle is below it.
    const folder = bundleApp(fileURLToPath(new URL('../../', sourceDir)));
    bundle = pathToFileURL(`${folder}/`);
    logger.debug('worker threads start from a bundle of the sources', { folder, ms: Math.round(performance.now() - t0) });
  } catch (err) {
    logger.warn('could not bundle the worker sources; worker threads start under tsx instead', { error: (err as Error).message });
  }
  bundles.set(sourceDir.href, bundle);
  return bundle;
}
