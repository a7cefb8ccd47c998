import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { bundleSourceWorkers, STALE_WORKER_BUNDLE_MS } from '../../../src-main/services/source-worker-bundle';

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
  const req = { entries: { one: join(src, 'one-entry.ts'), two: join(src, 'two-entry.ts') }, cacheDir: join(root, '.cache') };
  return { root, src, req };
}

function firstMessage(file: string): Promise<unknown> {
  const worker = new Worker(pathToFileURL(file));
  return new Promise((resolve, reject) => {
    worker.once('message', (m) => void worker.terminate().then(() => resolve(m)));
    worker.once('error', reject);
  });
}

describe('bundleSourceWorkers', () => {
  it('bundles the entries into one folder named by its content, which runs under plain Node', async () => {
    const { root, req } = scratchApp();
    const dir = bundleSourceWorkers(req);
    expect(basename(dir)).toMatch(/^workers-[0-9a-f]{16}$/);
    expect(join(dir, '..', '..')).toBe(root);
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['one.js', 'two.js', 'one.js.map', 'two.js.map']));
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
    const first = bundleSourceWorkers(req);
    const writtenAt = statSync(join(first, 'one.js')).mtimeMs;
    expect(bundleSourceWorkers(req)).toBe(first);
    expect(statSync(join(first, 'one.js')).mtimeMs).toBe(writtenAt);
    writeFileSync(join(src, 'shared.ts'), 'export const answer: number = 43;');
    const second = bundleSourceWorkers(req);
    expect(second).not.toBe(first);
    // A process started before the change may still start workers from the first folder.
    expect(existsSync(first)).toBe(true);
    expect(readdirSync(req.cacheDir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('removes bundles of earlier sources not used for the stale age, and keeps one in use', () => {
    const { src, req } = scratchApp();
    const past = (Date.now() - STALE_WORKER_BUNDLE_MS - 60_000) / 1000;
    const inUse = bundleSourceWorkers(req);
    utimesSync(inUse, past, past);
    expect(bundleSourceWorkers(req), 'reused, and so dated now').toBe(inUse);
    writeFileSync(join(src, 'shared.ts'), 'export const answer: number = 7;');
    const old = bundleSourceWorkers(req);
    utimesSync(old, past, past);
    writeFileSync(join(src, 'shared.ts'), 'export const answer: number = 8;');
    const fresh = bundleSourceWorkers(req);
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(req.cacheDir).sort()).toEqual([basename(inUse), basename(fresh)].sort());
  });

  it('throws on a source esbuild cannot parse, writing nothing', () => {
    const { req } = scratchApp('export const answer: number = ;');
    expect(() => bundleSourceWorkers(req)).toThrow(/shared\.ts/);
    expect(existsSync(req.cacheDir)).toBe(false);
  });
});
