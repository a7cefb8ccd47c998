import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src-main/config';
import type { Logger } from '../../../src-main/core';
import { singleWorkerProcessor } from '../../../src-main/services/batches-worker';
import { resolveWorkerEntry } from '../../../src-main/services/worker-entry';
import { repoRoot } from '../../helpers/paths';

const spyLogger = () => ({ debug() {}, info() {}, warn: vi.fn<Logger['warn']>(), error() {} }) satisfies Logger;
const folder = (...files: string[]): URL => {
  const dir = mkdtempSync(join(tmpdir(), 'picscan-we-'));
  for (const f of files) writeFileSync(join(dir, f), '');
  return pathToFileURL(`${dir}/`);
};

describe('resolveWorkerEntry', () => {
  it('starts from a bundle of the sources when running from the source, or from the tsx boot file when asked', () => {
    const folders = new Set<string>();
    for (const name of ['analyze-worker', 'batches-worker'] as const) {
      const logger = spyLogger();
      const entry = resolveWorkerEntry(name, { logger });
      expect(entry?.href).toMatch(new RegExp(`/\\.cache/app-[0-9a-f]{16}/${name}\\.js$`));
      expect(existsSync(entry!)).toBe(true);
      folders.add(new URL('.', entry).href);
      expect(resolveWorkerEntry(name, { logger, bundleSources: false })?.href).toBe(
        pathToFileURL(join(repoRoot, 'src-main', 'services', `${name}-boot.mjs`)).href,
      );
      expect(logger.warn).not.toHaveBeenCalled();
    }
    expect(folders.size, 'one bundle holds both workers').toBe(1);
  });

  it('falls back to the boot file with a warning when the sources cannot be bundled', () => {
    // A source folder whose entries do not exist: esbuild fails, the boot file is still there.
    const dir = folder('analyze-worker-boot.mjs');
    const logger = spyLogger();
    expect(resolveWorkerEntry('analyze-worker', { dir, logger })?.href).toBe(new URL('analyze-worker-boot.mjs', dir).href);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('could not bundle the worker sources'), {
      error: expect.stringContaining('analyze-worker-entry.ts'),
    });
  });

  it('prefers the bundled <name>.js (the build) over the boot file', () => {
    const both = folder('batches-worker.js', 'batches-worker-boot.mjs');
    expect(resolveWorkerEntry('batches-worker', { dir: both })?.href).toBe(new URL('batches-worker.js', both).href);
    const built = folder('analyze-worker.js', 'batches-worker.js');
    expect(resolveWorkerEntry('analyze-worker', { dir: built })?.href).toBe(new URL('analyze-worker.js', built).href);
    const source = folder('analyze-worker-boot.mjs');
    expect(resolveWorkerEntry('analyze-worker', { dir: source })?.href).toBe(new URL('analyze-worker-boot.mjs', source).href);
  });

  it('warns and returns nothing when no entry is on disk, or the given one is missing', () => {
    const logger = spyLogger();
    const empty = folder('analyze-worker.js');
    expect(resolveWorkerEntry('batches-worker', { dir: empty, logger })).toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('batches-worker entry not found'), {
      lookedFor: [new URL('batches-worker.js', empty).href, new URL('batches-worker-boot.mjs', empty).href],
    });
    const missing = new URL('nope.mjs', empty);
    expect(resolveWorkerEntry('analyze-worker', { entry: missing, logger })).toBeUndefined();
    expect(logger.warn).toHaveBeenLastCalledWith(expect.stringContaining('analyze-worker entry not found'), { lookedFor: [missing.href] });
  });

  it('lets the batches worker fall back to this thread with a warning (model-missing then comes from there)', async () => {
    const logger = spyLogger();
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-we-')), modelsDir: join(tmpdir(), 'no-models-here') }, {});
    const entry = new URL('missing.js', folder());
    await expect(singleWorkerProcessor(config, logger, entry)).rejects.toMatchObject({ code: 'model-missing' });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('on this thread'), { lookedFor: [entry.href] });
  });
});
