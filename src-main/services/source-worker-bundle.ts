import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type * as Esbuild from 'esbuild';

/**
 * Worker threads for a picscan that runs from its TypeScript sources (the `picscan` command, web
 * mode, tests). Started from a tsx boot file, every worker thread registers tsx's module hooks,
 * which Node runs on a thread of their own (a second V8 isolate): ≈ 30 MB more per worker than a
 * bundled one (docs/benchmarks.md). So the worker entries are bundled once per process with esbuild
 * (the compiler tsx itself runs) into `<cacheDir>/workers-<hash>/`, named by the bundle's content:
 * a changed source gives a new folder and never a stale one, and processes that bundle at the same
 * time write identical files and rename them into place atomically. The folder must sit two levels
 * below the app root, as `out/main/` does, so that paths relative to `import.meta.url` (config's
 * app root `../..`) mean the same in the bundle as in the sources.
 */
export interface SourceBundleRequest {
  /** Worker name (the bundle's `<name>.js`) → its TypeScript entry file. */
  entries: Readonly<Record<string, string>>;
  /** Folder that holds the `workers-<hash>` folders (`<app root>/.cache`). */
  cacheDir: string;
}

/**
 * Bundles of other sources not used for this long are removed when a new one is written (ms): a
 * user's sources do not change, so this only bounds what editing the sources leaves behind.
 */
export const STALE_WORKER_BUNDLE_MS = 24 * 3600 * 1000;
/** Hex digits of the content hash in a bundle folder's name. */
const HASH_DIGITS = 16;
const PREFIX = 'workers-';

/**
 * Bundles the entries and returns the folder that holds `<name>.js` for each, writing it only
 * when no process has yet. Throws when esbuild fails (a syntax error in the sources) or the folder
 * cannot be written; callers then start the workers from the tsx boot files.
 */
export function bundleSourceWorkers(req: SourceBundleRequest): string {
  // The output folder's name is not known before the hash: build into a placeholder folder beside
  // the final ones (same depth, so relative paths inside the output are already right).
  const placeholder = join(req.cacheDir, `${PREFIX}build`);
  // Loaded only here: the desktop app's bundled workers never need it.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const result = buildSync({
    entryPoints: req.entries,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Native and npm packages resolve from node_modules at run time, as in the electron-vite build.
    packages: 'external',
    outdir: placeholder,
    write: false,
    // A `.map` beside each file, read only when source maps are on (tsx turns them on); it points
    // at the source files rather than holding copies of them.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
  });
  const files = result.outputFiles
    .map((f) => ({ name: relative(placeholder, f.path), contents: f.contents }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update('\0').update(f.contents);
  const dir = join(req.cacheDir, `${PREFIX}${hash.digest('hex').slice(0, HASH_DIGITS)}`);
  if (Object.keys(req.entries).every((name) => existsSync(join(dir, `${name}.js`)))) {
    markUsed(dir);
    return dir;
  }

  mkdirSync(req.cacheDir, { recursive: true });
  const staging = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    for (const f of files) {
      mkdirSync(join(staging, f.name, '..'), { recursive: true });
      writeFileSync(join(staging, f.name), f.contents);
    }
    try {
      renameSync(staging, dir);
    } catch (err) {
      // Another process renamed its identical bundle into place first.
      if (!existsSync(dir)) throw err;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  removeStaleBundles(req.cacheDir, dir);
  return dir;
}

/** Dates a reused bundle's folder now, so that removing stale bundles spares it. */
function markUsed(dir: string): void {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // Read-only or removed meanwhile: the bundle is still usable this time.
  }
}

/** Removes old bundles of earlier sources; a failure to remove one is not an error. */
function removeStaleBundles(cacheDir: string, keep: string): void {
  const now = Date.now();
  for (const e of readdirSync(cacheDir, { withFileTypes: true })) {
    const path = join(cacheDir, e.name);
    if (!e.isDirectory() || !e.name.startsWith(PREFIX) || path === keep) continue;
    try {
      if (now - statSync(path).mtimeMs > STALE_WORKER_BUNDLE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile, or not ours to remove.
    }
  }
}
