import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { APP_ENTRIES, bundleSources, currentBundle, STALE_BUNDLE_MS } from '../../../bin/source-bundle.js';
import { runPicscan } from '../../helpers/cli';
import { repoRoot } from '../../helpers/paths';

// Two TypeScript worker entries sharing a module, as analyze-worker and batches-worker share the
// analysis code, bundled into a cache folder of a scratch app root (`<root>/.cache`).
function scratchApp(shared = 'export const answer: number = 42;') {
  const root = mkdtempSync(join(tmpdir(), 'picscan-swb-'));
  const src = join(root, 'src');
  mkdirSync(src);
  writeFileSync(join(src, 'shared.ts'), shared);
  for (const name of ['one', 'two']) {
    writeFileSync(
      join(src, `${name}-entry.ts`),
      `import { parentPort } from 'node:worker_threads';\nimport { answer } from './shared';\nparentPort?.postMessage({ name: '${name}', answer, url: import.meta.url });\n`,
    );
  }
  settle(join(src, 'shared.ts'), 120);
  settle(join(src, 'one-entry.ts'), 120);
  settle(join(src, 'two-entry.ts'), 120);
  const req = {
    entries: { one: join(src, 'one-entry.ts'), two: join(src, 'two-entry.ts') },
    cacheDir: join(root, '.cache'),
    prefix: 'app-',
  };
  return { root, src, req };
}

/** Dates a file `secondsAgo` in the past: a file saved just now is not trusted in a bundle (racy). */
function settle(file: string, secondsAgo: number): void {
  const at = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, at, at);
}

function firstMessage(file: string): Promise<unknown> {
  const worker = new Worker(pathToFileURL(file));
  return new Promise((resolve, reject) => {
    worker.once('message', (m) => void worker.terminate().then(() => resolve(m)));
    worker.once('error', reject);
  });
}

describe('bundleSources (bin/source-bundle.js)', () => {
  it('bundles the entries into one folder named by its content, which runs under plain Node', async () => {
    const { root, req } = scratchApp();
    const dir = bundleSources(req);
    expect(basename(dir)).toMatch(/^app-[0-9a-f]{16}$/);
    expect(join(dir, '..', '..')).toBe(root);
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['one.js', 'two.js', 'one.js.map', 'two.js.map', 'inputs.json']));
    // The shared module is one chunk beside the entries, not copied into each.
    expect(files.filter((f) => f.endsWith('.js')).length).toBe(3);
    await expect(firstMessage(join(dir, 'one.js'))).resolves.toEqual({
      name: 'one',
      answer: 42,
      url: pathToFileURL(join(dir, 'one.js')).href,
    });
    await expect(firstMessage(join(dir, 'two.js'))).resolves.toMatchObject({ name: 'two', answer: 42 });
  });

  it('reuses a folder of the same sources and writes a new one when a source changes', () => {
    const { src, req } = scratchApp();
    const first = bundleSources(req);
    const writtenAt = statSync(join(first, 'one.js')).mtimeMs;
    expect(bundleSources(req)).toBe(first);
    expect(statSync(join(first, 'one.js')).mtimeMs).toBe(writtenAt);
    writeFileSync(join(src, 'shared.ts'), 'export const answer: number = 43;');
    const second = bundleSources(req);
    expect(second).not.toBe(first);
    // A process started before the change may still start workers from the first folder.
    expect(existsSync(first)).toBe(true);
    expect(readdirSync(req.cacheDir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it("knows a bundle is current from its sources' sizes and times, without bundling again", () => {
    const { src, req } = scratchApp();
    expect(currentBundle(req)).toBeUndefined();
    const dir = bundleSources(req);
    expect(currentBundle(req)).toBe(dir);
    const recorded = JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8')) as Array<[string, number, number]>;
    // The sources, and where esbuild would read compiler options (no tsconfig.json yet: -1).
    expect(recorded.map(([file]) => file)).toEqual([
      'src/one-entry.ts',
      'src/shared.ts',
      'src/tsconfig.json',
      'src/two-entry.ts',
      'tsconfig.json',
    ]);
    expect(recorded.find(([file]) => file === 'tsconfig.json')?.slice(1)).toEqual([-1, -1]);
    // Saved again with the same text (a checkout, an editor): not current until bundled again,
    // which gives the same folder and records the new times.
    settle(join(src, 'shared.ts'), 60);
    expect(currentBundle(req)).toBeUndefined();
    expect(bundleSources(req)).toBe(dir);
    expect(currentBundle(req)).toBe(dir);
    // So does a compiler option esbuild reads (tsconfig.json is not among its inputs).
    writeFileSync(join(src, '..', 'tsconfig.json'), '{ "compilerOptions": { "target": "es2022" } }');
    settle(join(src, '..', 'tsconfig.json'), 30);
    expect(currentBundle(req)).toBeUndefined();
    expect(bundleSources(req)).toBe(dir);
    expect(currentBundle(req)).toBe(dir);
    // A source that is gone makes no bundle current.
    rmSync(join(src, 'two-entry.ts'));
    expect(currentBundle(req)).toBeUndefined();
  });

  it('does not trust a bundle for a source saved during (or just before) its build', () => {
    const { src, req } = scratchApp();
    const soon = new Date(Date.now() + 60_000);
    utimesSync(join(src, 'shared.ts'), soon, soon);
    const dir = bundleSources(req);
    const recorded = JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8')) as Array<[string, number, number]>;
    expect(recorded.find(([file]) => file === 'src/shared.ts')?.[2]).toBe(-2);
    expect(currentBundle(req)).toBeUndefined();
    // Settled (an older time): bundled once more into the same folder, then current.
    settle(join(src, 'shared.ts'), 60);
    expect(bundleSources(req)).toBe(dir);
    expect(currentBundle(req)).toBe(dir);
  });

  it('removes bundles of earlier sources not used for the stale age, and keeps one in use', () => {
    const { src, req } = scratchApp();
    const past = (Date.now() - STALE_BUNDLE_MS - 60_000) / 1000;
    const inUse = bundleSources(req);
    utimesSync(inUse, past, past);
    expect(bundleSources(req), 'reused, and so dated now').toBe(inUse);
    writeFileSync(join(src, 'shared.ts'), 'export const answer: number = 7;');
    const old = bundleSources(req);
    utimesSync(old, past, past);
    writeFileSync(join(src, 'shared.ts'), 'export const answer: number = 8;');
    const fresh = bundleSources(req);
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(req.cacheDir).sort()).toEqual([basename(inUse), basename(fresh)].sort());
  });

  it('throws on a source esbuild cannot parse, writing nothing', () => {
    const { req } = scratchApp('export const answer: number = ;');
    expect(() => bundleSources(req)).toThrow(/shared\.ts/);
    expect(existsSync(req.cacheDir)).toBe(false);
  });
});

describe('bin/picscan.js', () => {
  it('runs the picscan command from the bundle of the app sources in .cache/app-<hash>/', async () => {
    const startedMs = Date.now() - 1_000;
    const run = await runPicscan(['--version']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe((JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version);
    // The launcher made or reused (and so re-dated) the folder of the current sources.
    const cache = join(repoRoot, '.cache');
    const used = readdirSync(cache).filter((n) => /^app-[0-9a-f]{16}$/.test(n) && statSync(join(cache, n)).mtimeMs >= startedMs);
    expect(used.length).toBeGreaterThanOrEqual(1);
    for (const name of Object.keys(APP_ENTRIES))
      expect(
        used.some((n) => existsSync(join(cache, n, `${name}.js`))),
        name,
      ).toBe(true);
  });
});
