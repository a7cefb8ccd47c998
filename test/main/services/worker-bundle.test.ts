import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runModelBranch, type BranchRequest, type ModelBranch } from '../../../src-main/analysis';
import { loadConfig, type AppConfig } from '../../../src-main/config';
import { decodeImage } from '../../../src-main/inference';
import { createIntakeFetcher, type ImageProcessor, type ProcessedImage } from '../../../src-main/jobs';
import { intakeOptions } from '../../../src-main/intake';
import { analyzeBranchWorker } from '../../../src-main/services/analyze-worker';
import { analyzeModelsFromEngine } from '../../../src-main/services/analyze.service';
import { localBatchProcessor } from '../../../src-main/services/batches-processor';
import { openLocalEngine } from '../../../src-main/services/local-engine';
import { resolveWorkerEntry } from '../../../src-main/services/worker-entry';
import type { BatchOperation } from '../../../src-main/shared/batch';
import { fixture, repoRoot } from '../../helpers/paths';

// The production build's worker entries, run as the desktop app runs them: `electron-vite build`
// (the same config as `npm run build`) into a fresh folder, then the bundled `.js` files started
// under plain Node worker_threads, no tsx, on a real image. The folder is inside the repository
// (test-results/, git-ignored) so the bundles' external native packages resolve from node_modules.
// The same runs for the bundle of the sources that the CLI and web mode start their workers from
// (`.cache/app-<hash>/`, bin/source-bundle.js).

const CAT = 'cat_chelsea.jpg';
const ANALYZE: BatchOperation = {
  kind: 'analyze',
  features: ['Categories', 'Tags', 'Description', 'Faces', 'ImageType', 'Adult', 'Color'],
  details: ['Landmarks', 'Celebrities'],
};

let buildDir: string;
let mainDir: string;
/** The bundle of the sources the CLI and web mode start their workers from (bin/source-bundle.js). */
let sourceBundleDir: string;
const config: AppConfig = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-wb-')) }, {});

function electronViteBuild(outDir: string): Promise<{ code: number | null; output: string }> {
  // Vitest's own variables stay out of the build (vite reads some of them).
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV'));
  const cli = join(repoRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'build', '--outDir', outDir, '--logLevel', 'warn'], { cwd: repoRoot, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
  buildDir = mkdtempSync(join(repoRoot, 'test-results', 'worker-bundle-'));
  const build = await electronViteBuild(buildDir);
  expect(build.code, build.output).toBe(0);
  mainDir = join(buildDir, 'main');
  const entry = resolveWorkerEntry('batches-worker');
  expect(entry?.href).toMatch(/\/\.cache\/app-[0-9a-f]{16}\/batches-worker\.js$/);
  sourceBundleDir = fileURLToPath(new URL('.', entry));
});
afterAll(() => {
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

const bundles: Array<[string, () => string]> = [
  ['the electron-vite build', () => mainDir],
  ['the bundle of the sources', () => sourceBundleDir],
];

describe('worker entries in the bundle of the sources', () => {
  it('emits each worker entry flat in one folder two levels below the app root, free of tsx', () => {
    expect(resolve(sourceBundleDir, '..', '..')).toBe(resolve(repoRoot));
    const names = readdirSync(sourceBundleDir);
    for (const entry of ['analyze-worker.js', 'batches-worker.js']) expect(names).toContain(entry);
    expect(names.filter((n) => statSync(join(sourceBundleDir, n)).isDirectory())).toEqual([]);
    expect(names.filter((n) => !n.endsWith('.js') && !n.endsWith('.js.map'))).toEqual(['inputs.json']);
    for (const entry of ['analyze-worker.js', 'batches-worker.js']) {
      const code = readFileSync(join(sourceBundleDir, entry), 'utf8');
      expect(code, entry).not.toMatch(/from "(tsx|electron)[/"]/);
      expect(code, entry).not.toMatch(/\.ts"/);
    }
    // The bundled batches worker finds the analyze worker beside itself, not the boot file.
    expect(resolveWorkerEntry('analyze-worker', { dir: pathToFileURL(`${sourceBundleDir}/`) })?.href).toBe(
      pathToFileURL(join(sourceBundleDir, 'analyze-worker.js')).href,
    );
  });
});

describe('worker entries in the electron-vite build', () => {
  it('emits each worker entry as its own bundle, flat beside the backend and free of tsx', () => {
    const names = readdirSync(mainDir);
    for (const entry of ['index.js', 'backend-process.js', 'analyze-worker.js', 'batches-worker.js']) expect(names).toContain(entry);
    // resolveWorkerEntry looks for `<name>.js` beside the chunk it was bundled into, and config's
    // app root is `../..` from its chunk: both hold only while every file sits in out/main itself.
    expect(names.filter((n) => statSync(join(mainDir, n)).isDirectory())).toEqual([]);
    expect(names.filter((n) => !n.endsWith('.js'))).toEqual([]);
    for (const entry of ['analyze-worker.js', 'batches-worker.js']) {
      const code = readFileSync(join(mainDir, entry), 'utf8');
      expect(code, entry).not.toMatch(/from "(tsx|electron)[/"]/);
      expect(code, entry).not.toMatch(/\.ts"/);
    }
  });
});

describe.each(bundles)('workers started from %s', (_, dirOf) => {
  it('runs the bundled batches worker under plain Node with the app workerData: the same analysis as in-process', async () => {
    const entry = pathToFileURL(join(dirOf(), 'batches-worker.js'));
    expect(existsSync(entry), 'the build emitted the batches worker').toBe(true);
    const fetcher = createIntakeFetcher(intakeOptions('desktop'));
    const worker = new Worker(entry, { workerData: { config } });
    let inProcess: ImageProcessor | undefined;
    try {
      // Every reply in order; each step takes the next one (an init-error or error shows in full).
      const reply = (): Promise<{ type: string; id?: number; result?: ProcessedImage }> =>
        new Promise((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        });
      await expect(reply()).resolves.toEqual({ type: 'ready' });

      const image = await fetcher.fetch(fixture(CAT), new AbortController().signal);
      const done = reply();
      // As singleWorkerProcessor sends it: the thumbnail stays on the calling side.
      worker.postMessage({
        type: 'call',
        id: 1,
        request: { operation: ANALYZE, image: { ...image, thumbnail: { ...image.thumbnail, data: new Uint8Array(0) } } },
      });
      const answer = await done;
      expect(answer).toMatchObject({ type: 'done', id: 1, result: { kind: 'analyze' } });
      const result = answer.result!;
      if (result.kind !== 'analyze') return;
      expect(result.data.tags?.map((t) => t.name)).toContain('cat');
      expect(result.data.faces).toEqual([]);

      inProcess = await localBatchProcessor(config);
      const expected = await inProcess.process(image, ANALYZE, new AbortController().signal);
      expect(expected.kind).toBe('analyze');
      if (expected.kind !== 'analyze') return;
      expect({ ...result.data, requestId: '' }).toEqual({ ...expected.data, requestId: '' });

      const closed = reply();
      worker.postMessage({ type: 'close' });
      await expect(closed).resolves.toEqual({ type: 'closed' });
    } finally {
      await worker.terminate();
      await inProcess?.close?.();
      await fetcher.close?.();
    }
  });

  it('runs the bundled analyze worker through analyzeBranchWorker: no fallback, the in-process evidence', async () => {
    const entry = pathToFileURL(join(dirOf(), 'analyze-worker.js'));
    const engine = openLocalEngine(config);
    const { runModel } = analyzeModelsFromEngine(engine);
    const inProcess: ModelBranch = (img, want, signal) => runModelBranch(img, want, runModel, signal);
    const fallback = vi.fn(inProcess);
    const warn = vi.fn();
    const branch = analyzeBranchWorker(config, { fallback, entry, logger: { debug() {}, info() {}, warn, error: warn } });
    try {
      const img = await decodeImage(readFileSync(fixture(CAT)), { maxPixels: 50_000_000 });
      const all: BranchRequest = { objects: true, nsfw: true, pixels: true };
      const { timingsMs: _a, ...got } = await branch.run(img, all);
      expect(warn, 'the worker started').not.toHaveBeenCalled();
      expect(fallback, 'analysed in the worker').not.toHaveBeenCalled();
      expect(got.objects.map((o) => o.label)).toContain('cat');
      const { timingsMs: _b, ...expected } = await inProcess(img, all);
      expect(got).toEqual(expected);
    } finally {
      await branch.close();
      await engine.dispose();
    }
  });
});
