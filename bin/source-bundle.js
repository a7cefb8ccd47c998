// picscan from its TypeScript sources without tsx at run time. Under tsx, every thread that loads
// TypeScript (the `picscan` process and each analysis worker thread) registers tsx's module hooks,
// which Node runs on a thread of their own (a second V8 isolate): ≈ 30 MB per thread
// (docs/benchmarks.md, "Batches"). So the CLI and the worker entries are bundled with esbuild (the
// compiler tsx itself runs) into `.cache/app-<hash>/`, named by the bundle's content: a changed
// source gives a new folder, never a stale one, and processes that bundle at the same time write
// identical files and rename them into place atomically. The folder sits two levels below the app
// root, as electron-vite's `out/main/` does, so that paths relative to `import.meta.url` (config's
// app root `../..`, the workers beside the chunk that starts them) mean the same as in the sources.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';

/** The app's entries by bundle name (`<name>.js`), relative to the app root. */
export const APP_ENTRIES = Object.freeze({
  cli: 'src-main/cli/main.ts',
  'analyze-worker': 'src-main/services/analyze-worker-entry.ts',
  'batches-worker': 'src-main/services/batches-worker-entry.ts',
});

/**
 * Bundles of other sources not used for this long are removed when a new one is written (ms): a
 * user's sources do not change, so this only bounds what editing the sources leaves behind.
 */
export const STALE_BUNDLE_MS = 24 * 3600 * 1000;
/** Hex digits of the content hash in a bundle folder's name. */
const HASH_DIGITS = 16;

/**
 * Bundles the app's entries (APP_ENTRIES) into `<root>/.cache/app-<hash>/` and returns that folder.
 * @param {string} root the app root
 * @returns {string}
 */
export function bundleApp(root) {
  const entries = Object.fromEntries(Object.entries(APP_ENTRIES).map(([name, file]) => [name, join(root, file)]));
  return bundleSources({ entries, cacheDir: join(root, '.cache'), prefix: 'app-' });
}

/** The list of a bundle's source files with their size and modification time, in its folder. */
const INPUTS_FILE = 'inputs.json';
/** How many of the most recently used bundles are checked against the sources before building. */
const CHECKED_BUNDLES = 3;
/** A source saved this close to (or after) the start of a build may not be what it bundled (ms). */
const RACY_MS = 2_000;
/** Recorded time of such a source: never equal to a real one. */
const UNKNOWN_TIME = -2;

/**
 * Bundles the entries and returns the folder that holds `<name>.js` for each. A bundle whose source
 * files all still have the size and modification time it recorded is reused without running
 * esbuild (a few hundred `stat`s; esbuild would cost ≈ 0.3 s and ≈ 40 MB of the process's memory).
 * Otherwise the sources are bundled, and the folder is written unless a process has written the
 * same bundle already. Throws when esbuild fails (a syntax error in the sources) or the folder
 * cannot be written; callers then run the sources under tsx.
 * @param {{ entries: Readonly<Record<string, string>>, cacheDir: string, prefix: string }} req
 * @returns {string}
 */
export function bundleSources(req) {
  const current = currentBundle(req);
  if (current) {
    markUsed(current);
    return current;
  }
  const root = dirname(req.cacheDir);
  // The output folder's name is not known before the hash: build into a placeholder folder beside
  // the final ones (same depth, so relative paths inside the output are already right).
  const placeholder = join(req.cacheDir, `${req.prefix}build`);
  const startedMs = Date.now();
  // Loaded only here: the desktop app's bundle never needs it.
  /** @type {typeof import('esbuild')} */
  const esbuild = createRequire(import.meta.url)('esbuild');
  const result = esbuild.buildSync({
    absWorkingDir: root,
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
    // A `.map` beside each file, pointing at the source files rather than holding copies of them.
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'silent',
  });
  const files = result.outputFiles
    .map((f) => ({ name: relative(placeholder, f.path), contents: f.contents }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update('\0').update(f.contents);
  const dir = join(req.cacheDir, `${req.prefix}${hash.digest('hex').slice(0, HASH_DIGITS)}`);
  // A file whose time is not safely before the build may have been saved while esbuild read it
  // (times have a coarse grain on some file systems): recorded as unknown, so that the next start
  // bundles again rather than trust this output for it ("racy" entries, as git treats them).
  const recorded = stamps(root, [...Object.keys(result.metafile.inputs), ...tsconfigs(root, Object.values(req.entries))]).map(
    ([file, size, mtimeMs]) =>
      /** @type {[string, number, number]} */ (mtimeMs > startedMs - RACY_MS ? [file, size, UNKNOWN_TIME] : [file, size, mtimeMs]),
  );
  const inputs = JSON.stringify(recorded);
  if (hasEntries(dir, req)) {
    // The same bundle from sources with other times (another checkout): record these.
    writeAtomically(join(dir, INPUTS_FILE), inputs);
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
    writeFileSync(join(staging, INPUTS_FILE), inputs);
    try {
      renameSync(staging, dir);
    } catch (err) {
      // Another process renamed its identical bundle into place first.
      if (!existsSync(dir)) throw err;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  removeStaleBundles(req, dir);
  return dir;
}

/**
 * The most recently used bundle (of the last few) whose recorded sources are unchanged, if any.
 * @param {{ entries: Readonly<Record<string, string>>, cacheDir: string, prefix: string }} req
 * @returns {string | undefined}
 */
export function currentBundle(req) {
  const root = dirname(req.cacheDir);
  let folders;
  try {
    folders = readdirSync(req.cacheDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name.startsWith(req.prefix) && !e.name.includes('.tmp-'))
      .map((e) => ({ path: join(req.cacheDir, e.name), usedMs: statSync(join(req.cacheDir, e.name)).mtimeMs }))
      .sort((a, b) => b.usedMs - a.usedMs)
      .slice(0, CHECKED_BUNDLES);
  } catch {
    return undefined;
  }
  for (const { path } of folders) {
    try {
      /** @type {Array<[string, number, number]>} */
      const recorded = JSON.parse(readFileSync(join(path, INPUTS_FILE), 'utf8'));
      const now = stamps(
        root,
        recorded.map(([file]) => file),
      );
      if (hasEntries(path, req) && JSON.stringify(now) === JSON.stringify(recorded)) return path;
    } catch {
      // No record, or an unreadable one: not current.
    }
  }
  return undefined;
}

/**
 * Where esbuild looks for `tsconfig.json` for the entries (their folders up to the root, relative to
 * it), whether there is one or not: compiler options there change the output too, and they are not
 * among esbuild's inputs.
 * @param {string} root
 * @param {string[]} entryFiles absolute
 * @returns {string[]}
 */
function tsconfigs(root, entryFiles) {
  const found = new Set();
  for (const file of entryFiles) {
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      const rel = relative(root, dir);
      if (rel.startsWith('..') || isAbsolute(rel)) break; // outside the root
      found.add(join(rel, 'tsconfig.json'));
      if (rel === '') break;
    }
  }
  return [...found];
}

/**
 * [file relative to the root, size, modification time in ms] per file, sorted by file; a missing
 * file is [file, -1, -1], so that creating or removing one is a change.
 * @param {string} root
 * @param {string[]} files relative to the root
 * @returns {Array<[string, number, number]>}
 */
function stamps(root, files) {
  return [...new Set(files)].sort().map((file) => {
    const st = statSync(join(root, file), { throwIfNoEntry: false });
    return st ? [file, st.size, st.mtimeMs] : [file, -1, -1];
  });
}

/**
 * @param {string} dir
 * @param {{ entries: Readonly<Record<string, string>> }} req
 */
function hasEntries(dir, req) {
  return Object.keys(req.entries).every((name) => existsSync(join(dir, `${name}.js`)));
}

/**
 * Replaces a file in one step (write beside it, then rename); a failure is not an error.
 * @param {string} file
 * @param {string} text
 */
function writeAtomically(file, text) {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * Dates a reused bundle's folder now, so that removing stale bundles spares it.
 * @param {string} dir
 */
function markUsed(dir) {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // Read-only or removed meanwhile: the bundle is still usable this time.
  }
}

/**
 * Removes old bundles of earlier sources; a failure to remove one is not an error.
 * @param {{ cacheDir: string, prefix: string }} req
 * @param {string} keep
 */
function removeStaleBundles(req, keep) {
  const now = Date.now();
  for (const e of readdirSync(req.cacheDir, { withFileTypes: true })) {
    const path = join(req.cacheDir, e.name);
    if (!e.isDirectory() || !e.name.startsWith(req.prefix) || path === keep) continue;
    try {
      if (now - statSync(path).mtimeMs > STALE_BUNDLE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile, or not ours to remove.
    }
  }
}
